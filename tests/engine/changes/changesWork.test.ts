import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangesService } from '../../../engine/changes/changesService.js';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { lineWorkSoFar } from '../../../engine/diff/lineWork.js';
import { ConversationStore } from '../../../engine/store/conversation.js';
import { openStateFolder } from '../../../engine/workbench/stateFolder.js';
import { Workspace } from '../../../engine/workspace/workspace.js';
import { folderBeforeRequest } from '../../support/requestBefore.js';
import { useTempFolders } from '../../support/tempFolder.js';

const folders = 4;
const fileCount = 40;
const changedCount = 10;

describe('the work a list of changes does', () => {
  const tempFolder = useTempFolders('rpi-changes-work-');
  afterEach(() => void vi.useRealTimers());

  /** 40 files in 4 folders; the request changed 10 of them. */
  const changedFolder = async () => {
    // The clock an hour ahead, as if the files had been written long ago: no file is too recent to trust
    // its times (git's "racy clean" case, read again every time), so the counts are exact.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_600_000);
    const root = await tempFolder();
    const files = Object.fromEntries(Array.from({ length: fileCount }, (_, index) => [`pkg${index % folders}/f${index}.ts`, `export const value${index} = ${index};\nexport const same = true;\n`]));
    const { messageId } = await folderBeforeRequest(root, files);
    for (const file of Object.keys(files).slice(0, changedCount)) {
      const full = path.join(root, file);
      await writeFile(full, `${(await readFile(full, 'utf8')).replace('value', 'changed')}export const added = 1;\n`);
    }
    const state = await openStateFolder(root);
    const checkpoints = await CheckpointStore.open(root, state.dir);
    const workspace = await Workspace.at(root);
    const service = () => new ChangesService({ workspace, checkpoints, conversation: new ConversationStore(state.dir), broker: { requestOf: () => null }, emit: () => undefined });
    return { root, messageId, checkpoints, service, close: () => state.close() };
  };

  it('on a store just opened: each checkpoint listing read once, each changed file hashed once, one scan', async () => {
    const { messageId, checkpoints, service, close } = await changedFolder();
    try {
      const list = await service().list(messageId);
      expect(list.totals).toEqual({ files: changedCount, added: 2 * changedCount, removed: changedCount });
      // The checkpoint before the request is also the latest, which the folder is compared against: one reading serves both.
      expect(checkpoints.work).toEqual({ scans: 1, filesHashed: changedCount, listingsRead: folders + 1 });
    } finally {
      await close();
    }
  });

  it('listed again, as after every tool call: the folder scanned, no file hashed and no listing read again', async () => {
    const { root, messageId, checkpoints, service, close } = await changedFolder();
    try {
      const first = await service().list(messageId);
      const again = await service().list(messageId);
      expect(again).toEqual(first);
      expect(checkpoints.work).toEqual({ scans: 2, filesHashed: changedCount, listingsRead: folders + 1 });

      // A file changed since is the one read again.
      await writeFile(path.join(root, 'pkg0/f0.ts'), 'export const rewritten = 2;\n');
      const third = await service().list(messageId);
      expect(third.files.find((file) => file.path === 'pkg0/f0.ts')).toMatchObject({ added: 1, removed: 2 });
      expect(checkpoints.work).toEqual({ scans: 3, filesHashed: changedCount + 1, listingsRead: folders + 1 });
    } finally {
      await close();
    }
  });

  it('a recount narrowed to the files a call named still counts a listed file as it is now, edited since by someone else', async () => {
    const { root, messageId, checkpoints, close } = await changedFolder();
    const state = await openStateFolder(root);
    try {
      const events: { added: number; removed: number; files: number }[] = [];
      const workspace = await Workspace.at(root);
      const service = new ChangesService({ workspace, checkpoints, conversation: new ConversationStore(state.dir), broker: { requestOf: () => null }, emit: (event) => void events.push(event as never) });
      await service.announce(messageId, 'run-1');
      expect(events.at(-1)).toMatchObject({ files: changedCount, added: 2 * changedCount, removed: changedCount });
      // An editor adds three lines to a file the request changed; the run's next call names another file.
      const edited = path.join(root, 'pkg0/f0.ts');
      await writeFile(edited, `${await readFile(edited, 'utf8')}one\ntwo\nthree\n`);
      await service.announce(messageId, 'run-1', ['pkg1/f1.ts']);
      expect(events.at(-1)).toMatchObject({ files: changedCount, added: 2 * changedCount + 3, removed: changedCount });
    } finally {
      await state.close();
      await close();
    }
  });

  it('recounts a run’s changes after each call without reading the checkpoint they start from again', async () => {
    const { root, messageId, checkpoints, close } = await changedFolder();
    const state = await openStateFolder(root);
    try {
      const events: { files: number }[] = [];
      const workspace = await Workspace.at(root);
      const service = new ChangesService({ workspace, checkpoints, conversation: new ConversationStore(state.dir), broker: { requestOf: () => null }, emit: (event) => void events.push(event as never) });
      await service.announce(messageId, 'run-1');
      const afterFirst = checkpoints.manifestsRead;
      // Not read again: even with its file gone, the recounts go on from what was read.
      const manifests = path.join(state.dir, 'checkpoints', 'manifests');
      for (const name of await readdir(manifests)) await rm(path.join(manifests, name));
      for (let call = 0; call < 5; call += 1) await service.announce(messageId, 'run-1', [`pkg1/f${call}.ts`]);
      expect(events).toHaveLength(6);
      expect(events.at(-1)).toMatchObject({ files: changedCount });
      expect(checkpoints.manifestsRead).toBe(afterFirst);
      expect(afterFirst).toBeLessThanOrEqual(2);
    } finally {
      await state.close();
      await close();
    }
  });

  it('counts a long file with one line changed by that line: only its two versions are numbered and aligned', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_600_000);
    const root = await tempFolder();
    const long = Array.from({ length: 5_000 }, (_, index) => `export const line${index} = ${index};\n`).join('');
    const { messageId } = await folderBeforeRequest(root, { 'long.ts': long, 'short.ts': 'one\ntwo\n' });
    await writeFile(path.join(root, 'long.ts'), long.replace('line2500 = 2500;', 'line2500 = "changed";'));
    const state = await openStateFolder(root);
    try {
      const checkpoints = await CheckpointStore.open(root, state.dir);
      const service = new ChangesService({ workspace: await Workspace.at(root), checkpoints, conversation: new ConversationStore(state.dir), broker: { requestOf: () => null }, emit: () => undefined });
      const start = lineWorkSoFar().linesNumbered;
      const list = await service.list(messageId);
      expect(list.files).toEqual([expect.objectContaining({ path: 'long.ts', status: 'modified', added: 1, removed: 1, before: expect.objectContaining({ lines: 5_000, eol: 'lf' }) })]);
      // Not the 10,000 lines of both versions: the 4,999 lines around the change are found equal as bytes.
      expect(lineWorkSoFar().linesNumbered - start).toBe(2);
    } finally {
      await state.close();
    }
  });
});
