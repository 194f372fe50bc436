import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Manifests } from '../../../engine/checkpoints/manifests.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { projectWith, runTag, toolTag } from './checkpointFixture.js';

describe('CheckpointStore.list', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');
  afterEach(() => vi.restoreAllMocks());

  it('reads each manifest once: listing again after more checkpoints reads only the new ones (a run lists them after every change)', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    const reads = vi.spyOn(Manifests.prototype, 'read');
    await store.snapshot(runTag);
    for (let call = 1; call <= 8; call += 1) {
      await writeTree(root, { [`item-${call}.txt`]: `${call}\n` });
      await store.snapshot(toolTag);
    }
    expect(await store.list()).toHaveLength(9);

    for (let call = 9; call <= 11; call += 1) {
      reads.mockClear();
      await writeTree(root, { [`item-${call}.txt`]: `${call}\n` });
      await store.snapshot(toolTag);
      expect((await store.list()).map((info) => info.tag.reason)).toEqual(['run', ...Array<string>(call).fill('tool')]);
      expect(reads).toHaveBeenCalledTimes(1);
    }
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
