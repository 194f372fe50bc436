import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../../../engine/checkpoints/checkpointStore.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { projectWith, runTag, sha256, storedPath } from './checkpointFixture.js';
import { folderDigest } from './folderDigest.js';

/** Writes a folder listing as the store names it (by the sha256 of its bytes) and returns that hash. */
async function plantListing(root: string, entries: unknown[]): Promise<string> {
  const bytes = JSON.stringify({ entries });
  const hash = sha256(bytes);
  const file = storedPath(root, 'trees', hash);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return hash;
}

/** Writes a checkpoint manifest pointing at `rootHash` and returns its id. */
async function plantManifest(root: string, rootHash: string): Promise<string> {
  const id = `${Date.now() + 60_000}-abcdef`;
  const manifest = { version: 1, id, createdAt: Date.now(), tag: runTag, root: rootHash, fileCount: 1, newObjects: 0, hashedFiles: 0, notes: [] };
  await writeFile(path.join(root, '.workbench', 'checkpoints', 'manifests', `${id}.json`), JSON.stringify(manifest));
  return id;
}

describe('CheckpointStore, given a damaged or tampered checkpoint', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');

  /** A project with one checkpoint, so the store holds a real content ("pwned\n") a planted listing can point at. */
  async function storeWithContent() {
    const parent = await tempFolder();
    const root = path.join(parent, 'project');
    const project = await projectWith(async () => (await mkdir(root), root), { 'x.txt': 'pwned\n' });
    await project.store.snapshot(runTag);
    await rm(path.join(root, 'x.txt'));
    const file = { type: 'file', mode: 0o644, hash: sha256('pwned\n'), size: 6, mtimeMs: 0, ctimeMs: 0, ino: 0 };
    return { ...project, parent, file };
  }

  it.each(['..', '.', 'a/b', '/etc', '.git', '.GIT', '.workbench', 'nul\0byte'])('refuses a listing naming %j, and writes nothing anywhere', async (name) => {
    const { root, store, parent, file } = await storeWithContent();
    const before = await folderDigest(root);
    const id = await plantManifest(root, await plantListing(root, [{ name, ...file }]));

    await expect(store.changesSince(id)).rejects.toThrow(CheckpointError);
    await expect(store.restore(id)).rejects.toThrow(/cannot be trusted/);
    expect(await folderDigest(root)).toEqual(before);
    expect(await readdir(parent)).toEqual(['project']);
  });

  it('refuses a folder named ".." deeper down, before changing anything', async () => {
    const { root, store, parent, file } = await storeWithContent();
    await writeTree(root, { 'a.txt': 'keep me\n' });
    const before = await folderDigest(root);
    const escape = await plantListing(root, [{ name: 'pwned.txt', ...file }]);
    const inner = await plantListing(root, [{ name: '..', type: 'folder', tree: escape }]);
    const id = await plantManifest(root, await plantListing(root, [{ name: 'sub', type: 'folder', tree: inner }]));

    await expect(store.restore(id)).rejects.toThrow(/cannot be trusted/);
    expect(await folderDigest(root)).toEqual(before);
    expect(await readdir(parent)).toEqual(['project']);
  });

  it('refuses a listing that names one entry twice (a symlink and a folder through it)', async () => {
    const { root, store, file } = await storeWithContent();
    const inside = await plantListing(root, [{ name: 'passwd', ...file }]);
    const id = await plantManifest(root, await plantListing(root, [{ name: 'etc', type: 'symlink', target: '/etc' }, { name: 'etc', type: 'folder', tree: inside }]));
    await expect(store.restore(id)).rejects.toThrow(/names an entry twice/);
  });

  it('refuses a listing whose bytes do not match its hash', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const checkpoint = await store.snapshot(runTag);
    const manifest = JSON.parse(await readFile(path.join(root, '.workbench', 'checkpoints', 'manifests', `${checkpoint.id}.json`), 'utf8')) as { root: string };
    // Listings are stored gzipped: the tampering is done on the JSON inside.
    const listing = `${storedPath(root, 'trees', manifest.root)}.gz`;
    await writeFile(listing, gzipSync(gunzipSync(await readFile(listing)).toString('utf8').replace('a.txt', 'b.txt')));
    await writeTree(root, { 'a.txt': 'changed\n' });

    await expect(store.restore(checkpoint.id)).rejects.toThrow(/damaged/);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('changed\n');
  });

  it('refuses, changing nothing, when a stored content is missing', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a v1\n', 'b.txt': 'b v1\n' });
    const checkpoint = await store.snapshot(runTag);
    const hash = sha256('a v1\n');
    await rm(storedPath(root, 'objects', hash));
    await writeTree(root, { 'a.txt': 'a v2\n', 'b.txt': 'b v2\n' });
    const before = await folderDigest(root);

    await expect(store.restore(checkpoint.id)).rejects.toThrow(/incomplete.*a\.txt.*Nothing was changed/);
    expect(await folderDigest(root)).toEqual(before);
  });

  it('refuses a stored content that does not match its hash, leaving that file as it was', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a v1\n' });
    const checkpoint = await store.snapshot(runTag);
    const hash = sha256('a v1\n');
    await writeFile(storedPath(root, 'objects', hash), 'evil\n');
    await writeTree(root, { 'a.txt': 'a v2\n' });

    await expect(store.restore(checkpoint.id)).rejects.toThrow(/stored content of a\.txt is damaged/);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a v2\n');
  });

  it('refuses a manifest that is not one', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const checkpoint = await store.snapshot(runTag);
    await writeFile(path.join(root, '.workbench', 'checkpoints', 'manifests', `${checkpoint.id}.json`), '{"version": 1, "root": "../../x"}');
    await expect(store.restore(checkpoint.id)).rejects.toThrow(/is damaged and cannot be restored/);
    expect(await store.list()).toEqual([]);
  });
});
