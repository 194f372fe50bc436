import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { diffsOffThread } from '../../../engine/diff/diffThread.js';
import { diffFiles } from '../../../engine/diff/fileDiff.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { folderBeforeRequest } from '../../support/requestBefore.js';
import { useTempFolders } from '../../support/tempFolder.js';

/** 200,000 lines (about 9 MB); `changed` rewrites the lines it is true for. */
const bigText = (changed: (line: number) => boolean) => Array.from({ length: 200_000 }, (_, line) => `row ${line} of a big file ${changed(line) ? 'CHANGED' : 'as it was'}\n`).join('');

describe('the diff of a file over 1 MB', () => {
  const tempFolder = useTempFolders('rpi-large-diff-');
  const open = useOpenedWorkbenches();

  it('is computed on the diff worker: a request made meanwhile is answered first, and the diff is the one computed here', async () => {
    const root = await tempFolder();
    const before = bigText(() => false);
    const { messageId } = await folderBeforeRequest(root, { 'big.txt': before, 'small.txt': 'one\ntwo\n' });
    const after = bigText((line) => line % 3 === 0);
    await writeFile(path.join(root, 'big.txt'), after);
    await writeFile(path.join(root, 'small.txt'), 'one\nTWO\n');
    const workbench = await open(root);

    const order: string[] = [];
    const { sent, computed } = diffsOffThread();
    const big = workbench.request('changes:file', { messageId, path: 'big.txt' }).then((diff) => {
      order.push('big');
      return diff;
    });
    // Once the big diff is on the worker, the engine's thread is free for the next request.
    while (diffsOffThread().sent === sent) await nextTurn();
    const small = await workbench.request('changes:file', { messageId, path: 'small.txt' });
    order.push('small');
    expect(small).toMatchObject({ added: 1, removed: 1 });
    const bigDiff = await big;
    expect(order).toEqual(['small', 'big']);
    // The worker answered with the diff (no fallback to the engine's thread), and the small file never went to it.
    expect(diffsOffThread()).toEqual({ sent: sent + 1, computed: computed + 1 });

    const file = (text: string) => ({ kind: 'file' as const, mode: 0o644, size: Buffer.byteLength(text), bytes: Buffer.from(text) });
    const here = diffFiles({ path: 'big.txt', before: file(before), after: file(await readFile(path.join(root, 'big.txt'), 'utf8')), context: 3 });
    expect(bigDiff).toEqual(here);
    expect(bigDiff).toMatchObject({ added: 66_667, removed: 66_667, approximate: false, wholeFile: false });
  });

  it('a file over 1 MB in a list is counted on the worker too, with the counts of the diff', async () => {
    const root = await tempFolder();
    const { messageId } = await folderBeforeRequest(root, { 'big.txt': bigText(() => false) });
    await writeFile(path.join(root, 'big.txt'), bigText((line) => line % 1000 === 0));
    const workbench = await open(root);
    const { sent, computed } = diffsOffThread();
    const list = await workbench.request('changes:list', { messageId });
    expect(diffsOffThread()).toEqual({ sent: sent + 1, computed: computed + 1 });
    expect(list.files).toMatchObject([{ path: 'big.txt', status: 'modified', added: 200, removed: 200 }]);
  });
});
