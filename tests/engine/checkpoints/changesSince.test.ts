import { describe, expect, it, vi } from 'vitest';
import { HashedFiles } from '../../../engine/checkpoints/hashedFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { projectWith, runTag, toolTag } from './checkpointFixture.js';

describe('CheckpointStore.changesSince, asked after every change of a run', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');

  it('reads the checkpoint’s folder listings once, not on every call', async () => {
    const { root, store } = await projectWith(tempFolder, { 'README.md': '# demo\n', 'src/a.ts': 'a\n', 'src/lib/b.ts': 'b\n', 'docs/guide.md': 'g\n' });
    const before = await store.snapshot(runTag);
    const reads = vi.spyOn(HashedFiles.prototype, 'read');
    try {
      expect(await store.changesSince(before.id)).toEqual([]);
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(4);

      for (let call = 1; call <= 5; call += 1) {
        reads.mockClear();
        await writeTree(root, { [`src/item-${call}.ts`]: `${call}\n` });
        await store.snapshot(toolTag);
        reads.mockClear();
        const changes = await store.changesSince(before.id);
        expect(changes.filter((change) => change.kind !== 'folder').map((change) => change.path)).toEqual(Array.from({ length: call }, (_, index) => `src/item-${index + 1}.ts`));
        expect(reads).not.toHaveBeenCalled();
      }
    } finally {
      reads.mockRestore();
    }
  });
});
