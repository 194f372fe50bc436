import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { link, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countLinesOf } from '../../../engine/tools/lineCounts.js';
import { SmallFileReader } from '../../../engine/workspace/smallFileReader.js';
import { Workspace } from '../../../engine/workspace/workspace.js';
import { settlesWithin, takeThreadPool } from '../../support/busyThreadPool.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe.runIf(process.platform === 'linux')('SmallFileReader', () => {
  const tempFolder = useTempFolders();

  it('reads a plain file whole, and nothing that is not one plain file inside the folder', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
    await writeTree(root, { 'src/a.ts': 'a\nb\n', 'big.txt': 'x'.repeat(5000) });
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'src', 'link.ts'));
    await symlink(outside, path.join(root, 'out'));
    await link(path.join(outside, 'secret.txt'), path.join(root, 'src', 'hard.ts'));
    expect(spawnSync('mkfifo', [path.join(root, 'src', 'pipe')]).status).toBe(0);

    const reader = SmallFileReader.open(root)!;
    try {
      expect(reader.read('src/a.ts', 1024)?.toString()).toBe('a\nb\n');
      expect(reader.read('big.txt', 4999)).toBeNull();
      expect(reader.read('big.txt', 5000)?.length).toBe(5000);
      for (const refused of ['src/missing.ts', 'src/link.ts', 'src/hard.ts', 'src/pipe', 'out/secret.txt', 'src/../src/a.ts', 'src']) {
        expect(reader.read(refused, 1024), refused).toBeNull();
      }
    } finally {
      reader.close();
    }
  });

  it('reads nothing from a folder moved out of the root after it was reached', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(root, { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
    const reader = SmallFileReader.open(root)!;
    try {
      expect(reader.read('src/a.ts', 1024)?.toString()).toBe('a\n');
      // The folder is held; moved out, it still holds b.ts, now outside the root.
      await rename(path.join(root, 'src'), path.join(outside, 'src'));
      expect(reader.read('src/b.ts', 1024)).toBeNull();
    } finally {
      reader.close();
    }
  });
});

/** This process's descriptors open on something inside `root`. */
function descriptorsInside(root: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${root}/`) || readlinkSync(`/proc/self/fd/${fd}`) === root;
    } catch {
      return false;
    }
  }).length;
}

describe.runIf(process.platform === 'linux')('a SmallFileReader’s descriptors', () => {
  const tempFolder = useTempFolders();

  it('holds at most 32 folders while it reads, none once closed, and reads nothing after', async () => {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`pkg${index}/src/f.ts`, `${index}\n`])));
    const reader = SmallFileReader.open(root)!;
    for (let index = 0; index < 40; index += 1) expect(reader.read(`pkg${index}/src/f.ts`, 1024)?.toString()).toBe(`${index}\n`);
    expect(descriptorsInside(root)).toBeLessThanOrEqual(32 + 1);
    reader.close();
    expect(descriptorsInside(root)).toBe(0);
    expect(reader.read('pkg0/src/f.ts', 1024)).toBeNull();
    expect(descriptorsInside(root)).toBe(0);
  });

  it('are all closed when the counting is called off, and after it finishes', async () => {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`pkg${index}/f.ts`, 'x\n'])));
    const files = Array.from({ length: 40 }, (_, index) => ({ relPath: `pkg${index}/f.ts`, size: 2 }));
    const workspace = await Workspace.at(root);
    await expect(countLinesOf({ workspace, files, byteBudget: 1 << 20, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(descriptorsInside(root)).toBe(0);
    expect((await countLinesOf({ workspace, files, byteBudget: 1 << 20 })).size).toBe(40);
    expect(descriptorsInside(root)).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('a file map’s line counts', () => {
  const tempFolder = useTempFolders();
  afterEach(() => vi.restoreAllMocks());

  const tree = {
    'empty.txt': '',
    'one.txt': 'one',
    'two.txt': 'one\ntwo\n',
    'crlf.txt': 'a\r\nb\r\nc',
    'deep/er/still/notes.md': '# Notes\n\n- a\n- b\n',
    'image.png': '\x89PNG\r\n\x1a\nrest',
    'nul.bin': 'text\0more\n',
    'large.txt': 'line\n'.repeat(80_000),
  };
  const filesOf = () => Object.entries(tree).map(([relPath, text]) => ({ relPath, size: Buffer.byteLength(text) }));

  it('are what the workspace’s own reads count, file by file', async () => {
    const root = await tempFolder();
    await writeTree(root, tree);
    const workspace = await Workspace.at(root);
    const quick = await countLinesOf({ workspace, files: filesOf(), byteBudget: 1 << 30 });
    vi.spyOn(SmallFileReader, 'open').mockReturnValue(null);
    const careful = await countLinesOf({ workspace: await Workspace.at(root), files: filesOf(), byteBudget: 1 << 30 });
    expect(Object.fromEntries(quick)).toEqual(Object.fromEntries(careful));
    expect(quick.get('crlf.txt')).toEqual({ kind: 'text', lines: 3 });
    expect(quick.get('nul.bin')).toEqual({ kind: 'binary' });
    expect(quick.get('large.txt')).toEqual({ kind: 'text', lines: 80_000 });
  });

  it('of small files need no thread of the pool: they come while every thread is taken', async () => {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`src/m${index % 3}/f${index}.ts`, `${index}\n`.repeat(index + 1)])));
    const workspace = await Workspace.at(root);
    const files = Array.from({ length: 30 }, (_, index) => ({ relPath: `src/m${index % 3}/f${index}.ts`, size: `${index}\n`.length * (index + 1) }));
    const pool = await takeThreadPool(await tempFolder());
    try {
      // Today's main opened each file through the workspace: a dozen round trips through the pool a file.
      const counted = countLinesOf({ workspace, files, byteBudget: 1 << 20 });
      expect(await settlesWithin(counted)).toBe(true);
      expect(pool.stillBusy()).toBe(true);
      expect((await counted).get('src/m2/f29.ts')).toEqual({ kind: 'text', lines: 30 });
    } finally {
      await pool.release();
    }
  });
});
