import type * as NodeFs from 'node:fs';
import { lstatSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FolderListings } from '../../../engine/workspace/folderListings.js';
import { walkFileRuns } from '../../../engine/workspace/walkFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Every folder the walk lists, and every path it lstats. */
const calls = vi.hoisted(() => ({ listed: [] as string[], looked: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
    calls.listed.push(String(args[0]));
    return fs.readdirSync(...args);
  }) as typeof fs.readdirSync;
  const lstatSync = ((...args: Parameters<typeof fs.lstatSync>) => {
    calls.looked.push(String(args[0]));
    return fs.lstatSync(...args);
  }) as typeof fs.lstatSync;
  return { ...fs, readdirSync, lstatSync, default: { ...fs, readdirSync, lstatSync } };
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
const allFolders = ['', 'docs', 'src', 'src/lib'];

/**
 * Waits (a bounded number of file writes, no timer) until the file system's clock has moved past the
 * folders' change time, so a change made next gets a later one: listings are kept only of folders that
 * last changed seconds before, which the tests stand in for with a wall clock a minute ahead.
 */
function untilClockPasses(root: string, probeFolder: string): void {
  const made = lstatSync(path.join(root, 'src/lib')).ctimeMs;
  const probe = path.join(probeFolder, 'clock-probe');
  for (let tries = 0; tries < 1_000_000; tries += 1) {
    writeFileSync(probe, String(tries));
    if (lstatSync(probe).ctimeMs > made) return;
  }
  throw new Error('the file system clock did not move on');
}

describe('folder listings kept between walks', () => {
  const tempFolder = useTempFolders('rpi-folder-listings-');
  let root = '';
  let wallAhead = 60_000;
  let steady = 0;
  let listings: FolderListings;

  beforeEach(async () => {
    root = await tempFolder();
    await writeTree(root, tree);
    untilClockPasses(root, await tempFolder());
    wallAhead = 60_000;
    steady = 0;
    listings = new FolderListings({ wall: () => Date.now() + wallAhead, steady: () => steady });
  });

  const relative = (at: string) => path.relative(root, at).split(path.sep).join('/');
  const walk = async () => {
    calls.listed.length = 0;
    calls.looked.length = 0;
    const files: string[] = [];
    for await (const run of walkFileRuns(root, { listings })) files.push(...run.map((file) => file.relPath));
    return { files, listed: calls.listed.map(relative).sort() };
  };

  it('keeps a folder from its second listing on, and lists it no more while it is unchanged: one lstat instead', async () => {
    const first = await walk();
    expect(first.listed).toEqual(allFolders);
    expect(calls.looked).toEqual([]); // a first walk costs what a listing does
    expect((await walk()).listed).toEqual(allFolders);
    const third = await walk();
    expect(third.listed).toEqual([]);
    expect(calls.looked.map(relative).sort()).toEqual(allFolders);
    expect(third.files).toEqual(first.files);
    expect(third.files).toEqual(['.gitignore', 'README.md', 'docs/guide.md', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts']);
  });

  it('lists again a folder that gained, lost or renamed an entry, and only that folder', async () => {
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

  it('lists again a folder made anew under the same name, and a tree moved into its place down to its subfolders', async () => {
    const elsewhere = await tempFolder();
    await writeTree(elsewhere, { 'lib/z.ts': '', 'y.ts': '' });
    await walk();
    await walk();
    // the moved tree's subfolders keep their own (older) change times: they are told apart by what they are
    await rename(path.join(root, 'src'), path.join(elsewhere, 'old-src'));
    await rename(elsewhere, path.join(root, 'src'));
    await rm(path.join(root, 'docs'), { recursive: true });
    await mkdir(path.join(root, 'docs'));
    await writeFile(path.join(root, 'docs/other.md'), '');

    const after = await walk();
    expect(after.listed).toEqual([...allFolders, 'src/old-src', 'src/old-src/lib']);
    expect(after.files).toEqual(['.gitignore', 'README.md', 'docs/other.md', 'src/lib/z.ts', 'src/old-src/a.ts', 'src/old-src/lib/b.ts', 'src/old-src/lib/c.ts', 'src/y.ts']);
  });

  it('applies a .gitignore edited since to a kept listing', async () => {
    await walk();
    await walk();
    await writeFile(path.join(root, '.gitignore'), '*.log\n*.md\n');
    const after = await walk();
    expect(after.listed).toEqual([]);
    expect(after.files).toEqual(['.gitignore', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts']);
  });

  it('keeps no folder that changed a moment before it was listed, and lists again one kept 30 s ago', async () => {
    wallAhead = 0;
    for (let walks = 0; walks < 3; walks += 1) expect((await walk()).listed).toEqual(allFolders);

    wallAhead = 60_000;
    await walk();
    expect((await walk()).listed).toEqual([]);
    steady += 31_000;
    expect((await walk()).listed).toEqual(allFolders);
  });

  it('does not enter a folder swapped for a symlink', async () => {
    const outside = await tempFolder();
    await writeTree(outside, { 'x.ts': '' });
    await walk();
    await walk();
    await rm(path.join(root, 'docs'), { recursive: true });
    await symlink(outside, path.join(root, 'docs'));
    const after = await walk();
    expect(after.listed).toEqual(['']);
    expect(after.files).toContain('docs');
    expect(after.files).not.toContain('docs/x.ts');
  });
});
