import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { clockAhead, clockAt, projectWith, runTag, sha256, storedHashes, storedPath, toolTag } from './checkpointFixture.js';

describe('CheckpointStore.snapshot', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores every file once, then reads only the files whose size, times or inode changed', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`src/f${index}.ts`, `export const v${index} = ${index};\n`]));
    const { root, store } = await projectWith(tempFolder, files);
    clockAhead(10_000);

    const first = await store.snapshot(runTag);
    expect(first).toMatchObject({ fileCount: 30, hashedFiles: 30, newObjects: 30, notes: [] });
    const unchanged = await store.snapshot(toolTag);
    expect(unchanged).toMatchObject({ fileCount: 30, hashedFiles: 0, newObjects: 0 });

    await writeTree(root, { 'src/f1.ts': 'changed one\n', 'src/f2.ts': 'changed two\n', 'src/new.ts': 'new\n' });
    const changed = await store.snapshot(toolTag);
    expect(changed).toMatchObject({ fileCount: 31, hashedFiles: 3, newObjects: 3 });
  });

  it('builds on the latest checkpoint on disk when the store is opened again', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    clockAhead(10_000);
    await store.snapshot(runTag);

    const reopened = await CheckpointStore.open(root, path.join(root, '.workbench'));
    expect(await reopened.snapshot(toolTag)).toMatchObject({ fileCount: 2, hashedFiles: 0, newObjects: 0 });
  });

  it('reads again a file stamped just before the last snapshot, even though nothing about it changed', async () => {
    const { root, store } = await projectWith(tempFolder, { 'fresh.txt': 'just written\n' });
    const { mtimeMs } = await stat(path.join(root, 'fresh.txt'));

    clockAt(mtimeMs + 50);
    expect((await store.snapshot(runTag)).hashedFiles).toBe(1);
    expect((await store.snapshot(toolTag)).hashedFiles).toBe(1);

    clockAt(mtimeMs + 10_000);
    expect((await store.snapshot(toolTag)).hashedFiles).toBe(1); // read once more, now old enough to be trusted
    expect((await store.snapshot(toolTag)).hashedFiles).toBe(0);
  });

  it('catches a change that keeps the size and puts the mtime back (racy clean)', async () => {
    const { root, store } = await projectWith(tempFolder, { 'config.ini': 'mode=aaaa\n' });
    const file = path.join(root, 'config.ini');
    const stamp = Math.floor(Date.now() / 1000) + 0.5; // seconds, exact at any precision
    await utimes(file, stamp, stamp);

    clockAt(stamp * 1000 + 50); // the snapshot starts within the file's clock tick
    const before = await store.snapshot(runTag);
    await writeFile(file, 'mode=bbbb\n');
    await utimes(file, stamp, stamp);
    expect((await stat(file)).mtimeMs).toBe(stamp * 1000);

    const after = await store.snapshot(toolTag);
    expect(after.hashedFiles).toBe(1);
    await writeFile(file, 'mode=cccc\n');
    await store.restore(after.id);
    expect(await readFile(file, 'utf8')).toBe('mode=bbbb\n');
    await store.restore(before.id);
    expect(await readFile(file, 'utf8')).toBe('mode=aaaa\n');
  });

  it('stores equal contents once', async () => {
    const { root, store } = await projectWith(tempFolder, { 'one.txt': 'same\n', 'two/copy.txt': 'same\n', 'other.txt': 'other\n' });
    expect(await store.snapshot(runTag)).toMatchObject({ fileCount: 3, newObjects: 2 });
    expect(await storedHashes(root)).toEqual([sha256('same\n'), sha256('other\n')].sort());
  });

  it('stores nothing .gitignore excludes, nor anything in .git/ or .workbench/', async () => {
    const { root, store } = await projectWith(tempFolder, {
      '.gitignore': 'node_modules/\n*.log\n',
      'node_modules/dep/index.js': 'secret dependency\n',
      'debug.log': 'secret log\n',
      'nested/.gitignore': 'local.txt\n',
      'nested/local.txt': 'secret local\n',
      '.git/config': 'secret git\n',
      '.workbench/conversation.jsonl': 'secret conversation\n',
      'src/app.ts': 'code\n',
    });
    const info = await store.snapshot(runTag);
    expect(info.fileCount).toBe(3);
    expect(await storedHashes(root)).toEqual([sha256('node_modules/\n*.log\n'), sha256('local.txt\n'), sha256('code\n')].sort());
  });

  it('streams a large file into the store unchanged', async () => {
    const large = randomBytes(3 * 1024 * 1024 + 17);
    const { root, store } = await projectWith(tempFolder);
    await writeFile(path.join(root, 'data.bin'), large);
    expect(await store.snapshot(runTag)).toMatchObject({ hashedFiles: 1, newObjects: 1 });
    const hash = sha256(large);
    const stored = await readFile(storedPath(root, 'objects', hash));
    expect(stored.equals(large)).toBe(true);
  });

  it('handles a tree of thousands of files, stat’ing them on a worker thread', async () => {
    const files = Object.fromEntries(Array.from({ length: 2_600 }, (_, index) => [`pkg${index % 26}/f${index}.ts`, `// ${index}\n`]));
    const { root, store } = await projectWith(tempFolder, files);
    clockAhead(10_000);
    const first = await store.snapshot(runTag);
    expect(first).toMatchObject({ fileCount: 2_600, hashedFiles: 2_600 });

    await writeTree(root, { 'pkg3/f3.ts': 'changed\n', 'pkg7/f7.ts': 'changed too\n' });
    expect(await store.snapshot(toolTag)).toMatchObject({ fileCount: 2_600, hashedFiles: 2 });
    await store.restore(first.id);
    expect(await readFile(path.join(root, 'pkg3/f3.ts'), 'utf8')).toBe('// 3\n');
  });

  it.skipIf(process.platform === 'win32')('notes a FIFO instead of reading it, and restore leaves it alone', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    expect(spawnSync('mkfifo', [path.join(root, 'pipe')]).status).toBe(0);
    const info = await store.snapshot(runTag);
    expect(info.fileCount).toBe(1);
    expect(info.notes).toEqual([expect.stringMatching(/^pipe is not a regular file/)]);
    expect(await store.restore(info.id)).toEqual([]);
    expect((await lstat(path.join(root, 'pipe'))).isFIFO()).toBe(true);
  });

  it('writes no checkpoint when its signal aborts', async () => {
    const { store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const aborted = AbortSignal.abort(new Error('cancelled'));
    await expect(store.snapshot(runTag, aborted)).rejects.toThrow('cancelled');
    expect(await store.list()).toEqual([]);
  });

  it('lists checkpoints oldest first, with their tags and counts', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const first = await store.snapshot(runTag);
    await writeTree(root, { 'b.txt': 'b\n' });
    const second = await store.snapshot(toolTag);
    expect(second.id > first.id).toBe(true);
    expect(await store.list()).toEqual([first, second]);
    expect(second).toMatchObject({ tag: toolTag, fileCount: 2 });
  });

  it('refuses a tag without a message id', async () => {
    const { store } = await projectWith(tempFolder);
    await expect(store.snapshot({ reason: 'run', messageId: '' })).rejects.toThrow();
  });

  it('refuses to keep its store where its own snapshots would record it', async () => {
    const root = await tempFolder();
    await expect(CheckpointStore.open(root, path.join(root, 'state'))).rejects.toThrow(/inside the project folder/);
  });
});
