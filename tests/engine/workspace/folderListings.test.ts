import type * as NodeFs from 'node:fs';
import { lstatSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FolderListings } from '../../../engine/workspace/folderListings.js';
import { walkFileRuns } from '../../../engine/workspace/walkFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Every folder the walk lists, by path. */
const listed = vi.hoisted(() => [] as string[]);

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
    listed.push(String(args[0]));
    return fs.readdirSync(...args);
  }) as typeof fs.readdirSync;
  return { ...fs, readdirSync, default: { ...fs, readdirSync } };
});

const tree = {
  '.gitignore': '*.log\n',
  'README.md': '',
  'debug.log': '',
  'src/a.ts': '',
  'src/lib/b.ts': '',
  'src/lib/c.ts': '',
  'docs/guide.md': '',
};

/**
 * Waits (a bounded number of file writes, no timer) until the file system's clock has moved past the
 * folders' change time, so a change made next gets a later one: the walk only keeps folders that last
 * changed seconds ago, which a test stands in for with a clock of its own.
 */
function untilClockPasses(root: string): void {
  const made = lstatSync(path.join(root, 'src/lib')).ctimeMs;
  const probe = path.join(root, '..', `clock-probe-${path.basename(root)}`);
  for (let tries = 0; tries < 1_000_000; tries += 1) {
    writeFileSync(probe, String(tries));
    if (lstatSync(probe).ctimeMs > made) return;
  }
  throw new Error('the file system clock did not move on');
}

/** Waits (bounded file writes, no timer) until a change made now gets a change time past `ms`. */
function fsClockPast(root: string, ms: number): void {
  const probe = path.join(root, '..', `clock-probe-${path.basename(root)}`);
  for (let tries = 0; tries < 1_000_000; tries += 1) {
    writeFileSync(probe, String(tries));
    if (lstatSync(probe).ctimeMs > ms) return;
  }
  throw new Error('the file system clock did not move on');
}

describe('folder listings kept between walks', () => {
  const tempFolder = useTempFolders('rpi-folder-listings-');
  let root = '';
  /** As if the tree had been written a minute ago. */
  let clock = 0;
  let listings: FolderListings;

  beforeEach(async () => {
    root = await tempFolder();
    await writeTree(root, tree);
    untilClockPasses(root);
    clock = Date.now() + 60_000;
    listings = new FolderListings(() => clock);
    listed.length = 0;
  });

  const walk = async () => {
    listed.length = 0;
    const files: string[] = [];
    for await (const run of walkFileRuns(root, { listings })) files.push(...run.map((file) => file.relPath));
    return { files, listed: listed.map((at) => path.relative(root, at).split(path.sep).join('/')).sort() };
  };

  it('a folder unchanged since the last walk is not listed again', async () => {
    const first = await walk();
    expect(first.listed).toEqual(['', 'docs', 'src', 'src/lib']);
    const second = await walk();
    expect(second.listed).toEqual([]);
    expect(second.files).toEqual(first.files);
    expect(second.files).toEqual(['.gitignore', 'README.md', 'docs/guide.md', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts']);
  });

  it('a change made after a first listing is seen by the next walk: the folder changed after it was listed', async () => {
    // as if the tree had been written a little over 2 s before the first walk
    const start = Date.now();
    const listings = new FolderListings(() => Date.now() + 2_010);
    const files = async () => {
      listed.length = 0;
      const found: string[] = [];
      for await (const run of walkFileRuns(root, { listings })) found.push(...run.map((file) => file.relPath));
      return { found, listed: listed.map((at) => path.relative(root, at).split(path.sep).join('/')).sort() };
    };
    await files();
    fsClockPast(root, start + 20);
    await writeFile(path.join(root, 'src/lib/new.ts'), '');
    const after = await files();
    expect(after.listed).toEqual(['src/lib']);
    expect(after.found).toContain('src/lib/new.ts');
  });

  it('a folder that gained, lost or renamed an entry is listed again, and only that folder', async () => {
    await walk();
    await walk();
    await writeFile(path.join(root, 'src/lib/new.ts'), '');
    expect(await walk()).toEqual({ listed: ['src/lib'], files: ['.gitignore', 'README.md', 'docs/guide.md', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts', 'src/lib/new.ts'] });

    await rename(path.join(root, 'docs/guide.md'), path.join(root, 'docs/intro.md'));
    await rm(path.join(root, 'src/a.ts'));
    const after = await walk();
    expect(after.listed).toEqual(['docs', 'src']);
    expect(after.files).toEqual(['.gitignore', 'README.md', 'docs/intro.md', 'src/lib/b.ts', 'src/lib/c.ts', 'src/lib/new.ts']);
  });

  it('a folder removed and made again under the same name is listed again', async () => {
    await walk();
    await walk();
    await rm(path.join(root, 'docs'), { recursive: true });
    await mkdir(path.join(root, 'docs'));
    await writeFile(path.join(root, 'docs/other.md'), '');
    const after = await walk();
    expect(after.listed).toEqual(['', 'docs']);
    expect(after.files).toContain('docs/other.md');
    expect(after.files).not.toContain('docs/guide.md');
  });

  it('a .gitignore edited since applies to a kept listing', async () => {
    await walk();
    await writeFile(path.join(root, '.gitignore'), '*.log\n*.md\n');
    const after = await walk();
    expect(after.listed).toEqual([]);
    expect(after.files).toEqual(['.gitignore', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts']);
  });

  it('a folder that changed a moment before it was listed, or was listed long ago, is listed again', async () => {
    clock = Date.now();
    await walk();
    expect((await walk()).listed).toEqual(['', 'docs', 'src', 'src/lib']);

    clock = Date.now() + 60_000;
    await walk();
    expect((await walk()).listed).toEqual([]);
    clock += 31_000;
    expect((await walk()).listed).toEqual(['', 'docs', 'src', 'src/lib']);
  });

  it('a folder swapped for a symlink is listed through it as before, never kept', async () => {
    const outside = await tempFolder();
    await writeTree(outside, { 'x.ts': '' });
    await walk();
    await walk();
    await rm(path.join(root, 'docs'), { recursive: true });
    const { symlink } = await import('node:fs/promises');
    await symlink(outside, path.join(root, 'docs'));
    // the walk sees docs as a symlink entry now, not a folder: it neither enters nor lists it
    const after = await walk();
    expect(after.listed).toEqual(['']);
    expect(after.files).toContain('docs');
    expect(after.files).not.toContain('docs/x.ts');
  });
});
