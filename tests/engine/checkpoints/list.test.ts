import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { Manifests } from '../../../engine/checkpoints/manifests.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { projectWith, runTag, toolTag } from './checkpointFixture.js';

describe('CheckpointStore.list', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');
  afterEach(() => vi.restoreAllMocks());

  it('reads each manifest once: listing again after more checkpoints reads only the new ones (a run lists them after every change)', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    await store.snapshot(runTag);
    for (let call = 1; call <= 8; call += 1) {
      await writeTree(root, { [`item-${call}.txt`]: `${call}\n` });
      await store.snapshot(toolTag);
    }
    expect(await store.list()).toHaveLength(9);

    for (let call = 9; call <= 11; call += 1) {
      const readBefore = store.manifestsRead;
      await writeTree(root, { [`item-${call}.txt`]: `${call}\n` });
      await store.snapshot(toolTag);
      expect((await store.list()).map((info) => info.tag.reason)).toEqual(['run', ...Array<string>(call).fill('tool')]);
      expect(store.manifestsRead - readBefore).toBe(1);
    }

    // A store opened on the folder reads each manifest once, on its first listing.
    const reopened = await CheckpointStore.open(root, path.join(root, '.workbench'));
    expect(await reopened.list()).toHaveLength(12);
    expect(await reopened.list()).toHaveLength(12);
    expect(reopened.manifestsRead).toBe(12);
  });

  it('never brings back a manifest removed while a listing ran beside the removal', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const first = await store.snapshot(runTag);
    await store.snapshot(toolTag);
    const manifests = new Manifests(path.join(root, '.workbench', 'checkpoints', 'manifests'));
    const listing = manifests.readAll();
    await manifests.remove(first.id);
    await listing;
    expect(await manifests.read(first.id)).toBeNull();
    expect((await manifests.readAll()).map((manifest) => manifest.id)).not.toContain(first.id);
  });

  it('leaves out a manifest removed since the last listing, and a damaged one', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const first = await store.snapshot(runTag);
    const second = await store.snapshot(toolTag);
    expect((await store.list()).map((info) => info.id)).toEqual([first.id, second.id]);

    const manifests = path.join(root, '.workbench', 'checkpoints', 'manifests');
    await rm(path.join(manifests, `${first.id}.json`));
    const third = await store.snapshot(toolTag);
    await writeFile(path.join(manifests, `${third.id}.json`), '{"version": 1}');
    expect((await store.list()).map((info) => info.id)).toEqual([second.id]);
  });
});
