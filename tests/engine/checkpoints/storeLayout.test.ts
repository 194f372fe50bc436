import { mkdir, readFile, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { folderDigest } from './folderDigest.js';
import { checkpointsOf, clockAhead, legacyStoredPath, projectWith, runTag, sha256, storedHashes, storedPath, toolTag } from './checkpointFixture.js';

/** The folders a store's kind holds: none, when every content lies in it by its own name. */
async function foldersIn(root: string, kind: 'objects' | 'trees'): Promise<string[]> {
  const entries = await readdir(path.join(checkpointsOf(root), kind), { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/** Moves every stored content and listing under a two-character subfolder, as stores written before kept them. */
async function toLegacyLayout(root: string): Promise<number> {
  let moved = 0;
  for (const kind of ['objects', 'trees'] as const) {
    const dir = path.join(checkpointsOf(root), kind);
    for (const name of await readdir(dir)) {
      const own = /^([0-9a-f]{64})(\.gz)?$/.exec(name);
      if (!own) continue;
      const target = legacyStoredPath(root, kind, own[1]!) + (own[2] ?? '');
      await mkdir(path.dirname(target), { recursive: true });
      await rename(path.join(dir, name), target);
      moved += 1;
    }
  }
  return moved;
}

describe('the checkpoint store on disk', () => {
  const tempFolder = useTempFolders('rpi-store-layout-');
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a first checkpoint’s contents and listings in objects/ and trees/ themselves, making no subfolder for them', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`pkg${index % 4}/f${index}.ts`, `export const v${index} = ${index};\n`]));
    const { root, store } = await projectWith(tempFolder, files);

    expect(await store.snapshot(runTag)).toMatchObject({ fileCount: 40, newObjects: 40 });

    // Before, a two-character subfolder was made for nearly every content: 40 files made about 35.
    expect(await foldersIn(root, 'objects')).toEqual([]);
    expect(await foldersIn(root, 'trees')).toEqual([]);
    expect(await storedHashes(root)).toHaveLength(40);
  });

  it('goes on using a store written with two-character subfolders: restores from it, finds what it holds, collects from it', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a v1\n', 'src/b.ts': 'export const b = 1;\n' });
    clockAhead(10_000);
    const first = await store.snapshot(runTag);
    const original = await folderDigest(root);
    expect(await toLegacyLayout(root)).toBeGreaterThanOrEqual(4);

    // A new engine opens the old store.
    const reopened = await CheckpointStore.open(root, path.join(root, '.workbench'));
    // A copy of a stored content is found where the old store keeps it, not stored again.
    await writeTree(root, { 'copy.txt': 'a v1\n', 'a.txt': 'a v2\n' });
    const second = await reopened.snapshot(toolTag);
    expect(second).toMatchObject({ fileCount: 3, hashedFiles: 2, newObjects: 1 });
    expect(await storedHashes(root)).toEqual([sha256('a v1\n'), sha256('a v2\n'), sha256('export const b = 1;\n')].sort());

    await reopened.restore(first.id);
    expect(await folderDigest(root)).toEqual(original);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a v1\n');

    // The old layout's contents that no checkpoint keeps are removed like the new layout's.
    expect(await reopened.collect((info) => info.id === second.id)).toEqual({ removedCheckpoints: 1, removedObjects: 0 });
    expect(await reopened.collect(() => false)).toEqual({ removedCheckpoints: 1, removedObjects: 3 });
    expect(await storedHashes(root)).toEqual([]);
  });

  it('stores again, flat, a content whose only copy in the old layout was cut short', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'the whole text\n' });
    const checkpoint = await store.snapshot(runTag);
    await toLegacyLayout(root);
    const hash = sha256('the whole text\n');
    // The old copy was cut short (a power cut while an old engine wrote it); the next snapshot stores it whole, flat.
    await writeFile(legacyStoredPath(root, 'objects', hash), 'the whole');
    const reopened = await CheckpointStore.open(root, path.join(root, '.workbench'));
    await writeTree(root, { 'again.txt': 'the whole text\n' });
    expect(await reopened.snapshot(toolTag)).toMatchObject({ newObjects: 1 });
    expect(await readFile(storedPath(root, 'objects', hash), 'utf8')).toBe('the whole text\n');

    await writeTree(root, { 'a.txt': 'changed\n' });
    await reopened.restore(checkpoint.id);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('the whole text\n');
  });

  it('reads and restores from the whole copy when the flat one was cut short and the old layout holds it whole', async () => {
    const text = 'a content held twice\n'.repeat(4);
    const { root, store } = await projectWith(tempFolder, { 'a.txt': text, 'big.bin': 'x'.repeat(2 << 20) });
    const checkpoint = await store.snapshot(runTag);
    await toLegacyLayout(root);
    // A flat copy cut short beside the whole old one (a power cut while this engine wrote it, after an older one had).
    const hash = sha256(text);
    const bigHash = sha256('x'.repeat(2 << 20));
    await writeFile(storedPath(root, 'objects', hash), text.slice(0, 9));
    await writeFile(storedPath(root, 'objects', bigHash), 'x'.repeat(1000));
    await writeTree(root, { 'a.txt': 'changed\n', 'big.bin': 'changed\n' });

    const reopened = await CheckpointStore.open(root, path.join(root, '.workbench'));
    const contents = await reopened.readCheckpoint(checkpoint.id);
    expect((await contents.read(contents.files.get('a.txt') as never)).toString()).toBe(text);
    await reopened.restore(checkpoint.id);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe(text);
    expect((await readFile(path.join(root, 'big.bin'))).length).toBe(2 << 20);
  });

  it('never collects through an old-layout subfolder that is a symlink to a folder outside', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    await store.snapshot(runTag);
    const outside = await tempFolder();
    const planted = sha256('outside\n');
    await writeFile(path.join(outside, planted.slice(2)), 'outside\n');
    await symlink(outside, path.join(checkpointsOf(root), 'objects', planted.slice(0, 2)));

    expect(await store.collect(() => true)).toEqual({ removedCheckpoints: 0, removedObjects: 0 });
    expect(await readFile(path.join(outside, planted.slice(2)), 'utf8')).toBe('outside\n');
  });
});
