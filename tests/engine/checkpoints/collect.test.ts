import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { legacyStoredPath, projectWith, runTag, sha256, storedHashes, storedPath, toolTag } from './checkpointFixture.js';

describe('CheckpointStore.collect', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');

  it('removes the checkpoints keep() rejects and the contents only they used; the others still restore', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'v1\n', 'shared.txt': 'shared\n' });
    const first = await store.snapshot(runTag);
    await writeTree(root, { 'a.txt': 'v2\n' });
    const second = await store.snapshot(toolTag);
    await writeTree(root, { 'a.txt': 'v3\n' });
    const third = await store.snapshot(toolTag);

    expect(await store.collect((info) => info.id !== second.id)).toEqual({ removedCheckpoints: 1, removedObjects: 1 });
    expect((await store.list()).map((info) => info.id)).toEqual([first.id, third.id]);
    expect(await storedHashes(root)).toEqual([sha256('v1\n'), sha256('v3\n'), sha256('shared\n')].sort());

    await store.restore(first.id);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('v1\n');
    await store.restore(third.id);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('v3\n');
  });

  it('removes contents no checkpoint refers to, and temp files a dead writer left', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    await store.snapshot(runTag);
    const orphan = sha256('from a snapshot that died before its manifest\n');
    const objects = path.join(root, '.workbench', 'checkpoints', 'objects');
    await writeFile(storedPath(root, 'objects', orphan), 'from a snapshot that died before its manifest\n');
    // One left by an engine that kept contents under two-character subfolders.
    const oldOrphan = sha256('from an older engine\n');
    await mkdir(path.dirname(legacyStoredPath(root, 'objects', oldOrphan)), { recursive: true });
    await writeFile(legacyStoredPath(root, 'objects', oldOrphan), 'from an older engine\n');
    const deadPid = 2 ** 22 + 1; // above Linux's pid limit, so never a live process
    await writeFile(path.join(objects, `.incoming.${deadPid}.0000abcd.tmp`), 'partial');

    expect(await store.collect(() => true)).toEqual({ removedCheckpoints: 0, removedObjects: 2 });
    expect(await storedHashes(root)).toEqual([sha256('a\n')]);
    expect((await readdir(objects)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('lets the next snapshot store again what the collected latest checkpoint held', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'v1\n' });
    const first = await store.snapshot(runTag);
    await writeTree(root, { 'a.txt': 'v2\n' });
    await store.snapshot(toolTag);
    await store.collect((info) => info.id === first.id);

    const again = await store.snapshot(toolTag);
    expect(again.newObjects).toBe(1);
    await writeTree(root, { 'a.txt': 'v3\n' });
    await store.restore(again.id);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('v2\n');
  });

  it('can remove everything, and the store starts over', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    await store.snapshot(runTag);
    await store.snapshot(toolTag);

    expect(await store.collect(() => false)).toEqual({ removedCheckpoints: 2, removedObjects: 2 });
    expect(await store.list()).toEqual([]);
    expect(await storedHashes(root)).toEqual([]);
    const listings = await readdir(path.join(root, '.workbench', 'checkpoints', 'trees'), { recursive: true, withFileTypes: true });
    expect(listings.filter((entry) => entry.isFile())).toEqual([]);
    expect(await store.snapshot(runTag)).toMatchObject({ fileCount: 2, hashedFiles: 2, newObjects: 2 });
  });
});
