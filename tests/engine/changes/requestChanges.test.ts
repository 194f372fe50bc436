import { chmod, lstat, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventOf, FileChange } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const exists = (file: string) => lstat(file).then(() => true, () => false);
const brief = (files: readonly FileChange[]) => files.map(({ path: file, status, added, removed, oldPath }) => ({ path: file, status, added, removed, ...(oldPath ? { oldPath } : {}) }));

describe('the changes of a request', () => {
  const tempFolder = useTempFolders('rpi-changes-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  /** A folder after one request that edited, created, deleted, moved, and made a file through a command. */
  async function afterOneRequest() {
    const root = await tempFolder();
    await writeTree(root, { 'edit.txt': 'one\ntwo\nthree\n', 'gone.txt': 'bye\nbye\n', 'old/name.txt': 'moved\n', 'keep.txt': 'keep\n' });
    await chmod(path.join(root, 'gone.txt'), 0o755);
    llm().enqueue(
      say('Files.'),
      say(planText('Change')),
      call('edit_file', { path: 'edit.txt', old_text: 'two', new_text: 'TWO\nand a half' }),
      call('write_file', { path: 'new.txt', content: 'fresh\n' }),
      call('delete_file', { path: 'gone.txt' }),
      call('move_file', { from: 'old/name.txt', to: 'new/name.txt' }),
      call('run_command', { command: 'printf "by shell\\n" > shell.txt' }),
      say('done'),
      say('Changed five files.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Change things');
    expect((await started.finished).status).toBe('done');
    return { root, workbench, events, messageId: started.messageId };
  }

  it('lists every file created, changed, deleted or renamed, shell-made changes included, with line counts', async () => {
    const { workbench, messageId } = await afterOneRequest();
    const list = await workbench.request('changes:list', { messageId });
    expect(list).toMatchObject({ messageId, range: 'request', until: 'folder', totals: { files: 5, added: 4, removed: 3 } });
    expect(brief(list.files)).toEqual([
      { path: 'edit.txt', status: 'modified', added: 2, removed: 1 },
      { path: 'gone.txt', status: 'deleted', added: 0, removed: 2 },
      { path: 'new.txt', status: 'added', added: 1, removed: 0 },
      { path: 'new/name.txt', status: 'renamed', added: 0, removed: 0, oldPath: 'old/name.txt' },
      { path: 'shell.txt', status: 'added', added: 1, removed: 0 },
    ]);
    expect(list.files.find((file) => file.path === 'gone.txt')?.before).toMatchObject({ mode: 0o755, lines: 2 });
  });

  it('a summary stands for its request; the diff of one file holds every line of a small file', async () => {
    const { workbench, messageId } = await afterOneRequest();
    const { conversation } = await workbench.request('workbench:snapshot');
    const answer = conversation.find((message) => message.role === 'assistant')!;
    expect((await workbench.request('changes:list', { messageId: answer.id })).messageId).toBe(messageId);
    const diff = await workbench.request('changes:file', { messageId: answer.id, path: 'edit.txt' });
    expect(diff).toMatchObject({ wholeFile: true, added: 2, removed: 1 });
    expect(diff.hunks[0]!.lines).toEqual([' one', '-two', '+TWO', '+and a half', ' three']);
    expect((await workbench.request('changes:file', { messageId, path: 'old/name.txt' })).path).toBe('new/name.txt');
    await expect(workbench.request('changes:file', { messageId, path: 'keep.txt' })).rejects.toThrow('keep.txt is not among the files this request changed.');
    await expect(workbench.request('changes:list', { messageId: 'm-nope' })).rejects.toThrow('There is no message "m-nope"');
  });

  it('an earlier request ends at the next request’s checkpoint; "since" runs to the folder now', async () => {
    const { root, workbench, messageId } = await afterOneRequest();
    llm().enqueue(say('Files.'), say(planText('Again')), call('write_file', { path: 'edit.txt', content: 'rewritten\n' }), say('done'), say('Rewrote it.'));
    const second = await startRun(workbench, 'Rewrite edit.txt');
    await second.finished;

    expect((await workbench.request('changes:list', { messageId })).until).toBe('next-request');
    expect(brief((await workbench.request('changes:list', { messageId })).files)[0]).toEqual({ path: 'edit.txt', status: 'modified', added: 2, removed: 1 });
    expect(brief((await workbench.request('changes:list', { messageId: second.messageId })).files)).toEqual([{ path: 'edit.txt', status: 'modified', added: 1, removed: 4 }]);
    const since = await workbench.request('changes:list', { messageId, range: 'since' });
    expect(since.files.find((file) => file.path === 'edit.txt')).toMatchObject({ added: 1, removed: 3 });
    await writeFile(path.join(root, 'hand.txt'), 'typed by hand\n');
    expect((await workbench.request('changes:list', { messageId: second.messageId })).files.map((file) => file.path)).toEqual(['edit.txt', 'hand.txt']);
  });

  it('all diffs at once, as the CLI prints them (three lines of context)', async () => {
    const { workbench, messageId } = await afterOneRequest();
    const diffs = await workbench.request('changes:diffs', { messageId });
    expect(diffs.map((diff) => diff.path)).toEqual(['edit.txt', 'gone.txt', 'new.txt', 'new/name.txt', 'shell.txt']);
    expect(diffs.every((diff) => !diff.wholeFile)).toBe(true);
  });

  it('announces the counts as files change during the run, before run-finished', async () => {
    const { events, messageId } = await afterOneRequest();
    const counted = events.filter((event): event is EventOf<'changes-updated'> => event.type === 'changes-updated');
    expect(counted.length).toBeGreaterThanOrEqual(1);
    expect(counted.every((event) => event.messageId === messageId)).toBe(true);
    expect(counted.at(-1)).toMatchObject({ files: 5, added: 4, removed: 3 });
    const finished = events.findIndex((event) => event.type === 'run-finished');
    expect(events.indexOf(counted.at(-1)!)).toBeLessThan(finished);
  });

  describe('revert', () => {
    it('puts one file back as before the request, checkpointed, and takes it back again with undoRevert', async () => {
      const { root, workbench, messageId, events } = await afterOneRequest();
      const reverted = await workbench.request('changes:revert', { messageId, paths: ['edit.txt'] });
      expect(reverted.files).toEqual([{ path: 'edit.txt', change: 'restored' }]);
      expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
      expect(brief((await workbench.request('changes:list', { messageId })).files).map((file) => file.path)).not.toContain('edit.txt');
      expect(events.at(-1)).toMatchObject({ type: 'changes-updated', runId: null, messageId, files: 4 });

      await workbench.request('changes:undo-revert', { revertId: reverted.revertId, paths: ['edit.txt'] });
      expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('one\nTWO\nand a half\nthree\n');
    });

    it('recreates a deleted file with its mode, removes a created one, undoes a rename', async () => {
      const { root, workbench, messageId } = await afterOneRequest();
      const reverted = await workbench.request('changes:revert', { messageId, paths: ['gone.txt', 'new.txt', 'old/name.txt', 'new/name.txt'] });
      expect(reverted.files).toEqual([
        { path: 'gone.txt', change: 'recreated' },
        { path: 'new.txt', change: 'removed' },
        { path: 'old/name.txt', change: 'recreated' },
        { path: 'new/name.txt', change: 'removed' },
      ]);
      expect(await readFile(path.join(root, 'gone.txt'), 'utf8')).toBe('bye\nbye\n');
      expect((await stat(path.join(root, 'gone.txt'))).mode & 0o777).toBe(0o755);
      expect(await exists(path.join(root, 'new.txt'))).toBe(false);
      expect(await readFile(path.join(root, 'old', 'name.txt'), 'utf8')).toBe('moved\n');
      expect(brief((await workbench.request('changes:list', { messageId })).files).map((file) => file.path)).toEqual(['edit.txt', 'shell.txt']);
    });

    it('an earlier request’s file reverted later shows as back to before', async () => {
      const { workbench, messageId } = await afterOneRequest();
      llm().enqueue(say('Files.'), say(planText('Other')), call('write_file', { path: 'other.txt', content: 'x\n' }), say('done'), say('Other.'));
      await (await startRun(workbench, 'Something else')).finished;
      await workbench.request('changes:revert', { messageId, paths: ['new.txt'] });
      const files = (await workbench.request('changes:list', { messageId })).files;
      expect(files.find((file) => file.path === 'new.txt')?.revertedSince).toBe(true);
      expect(files.find((file) => file.path === 'edit.txt')?.revertedSince).toBeUndefined();
    });

    it('puts a symlink back as a symlink, never writing through one in the way', async () => {
      const root = await tempFolder();
      const outside = await tempFolder();
      await writeFile(path.join(outside, 'secret.txt'), 'outside\n');
      await symlink('keep.txt', path.join(root, 'link'));
      await writeTree(root, { 'keep.txt': 'k\n', 'data.txt': 'data\n' });
      llm().enqueue(say('Files.'), say(planText('Swap')), call('delete_file', { path: 'link' }), call('write_file', { path: 'data.txt', content: 'new data\n' }), say('done'), say('Done.'));
      const workbench: Workbench = await open(root, fakeModelOptions(llm()));
      const started = await startRun(workbench, 'Swap');
      await started.finished;
      // Links leading outside now stand where the files were.
      await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link'));
      await rm(path.join(root, 'data.txt'));
      await symlink(path.join(outside, 'secret.txt'), path.join(root, 'data.txt'));

      await workbench.request('changes:revert', { messageId: started.messageId, paths: ['link', 'data.txt'] });
      expect(await readlink(path.join(root, 'link'))).toBe('keep.txt');
      expect((await lstat(path.join(root, 'data.txt'))).isSymbolicLink()).toBe(false);
      expect(await readFile(path.join(root, 'data.txt'), 'utf8')).toBe('data\n');
      expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
    });

    it('refuses paths outside the folder, unknown files, and any revert while a run is active', async () => {
      const { workbench, messageId } = await afterOneRequest();
      await expect(workbench.request('changes:revert', { messageId, paths: ['../x'] })).rejects.toThrow('leads outside the project folder');
      await expect(workbench.request('changes:revert', { messageId, paths: ['nothing.txt'] })).rejects.toThrow('There is no file "nothing.txt", before that request or now.');
      await expect(workbench.request('changes:revert', { messageId, paths: ['.workbench/conversation.jsonl'] })).rejects.toThrow();
      llm().enqueue(say('Thinking…', { delayMs: 1000 }));
      const running = await startRun(workbench, 'Another');
      await expect(workbench.request('changes:revert', { messageId, paths: ['edit.txt'] })).rejects.toThrow('A run is in progress');
      await workbench.request('session:cancel');
      await running.finished;
    });
  });
});
