import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventOf } from '../../../engine/contract/index.js';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { ConversationStore } from '../../../engine/store/conversation.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { folderAfterOneRun } from '../../support/folderAfterOneRun.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { eventsInTurn } from '../../support/eventsInTurn.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const writes = 8;

describe('the live change count of a running request', () => {
  const tempFolder = useTempFolders('rpi-live-recount-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();
  afterEach(() => void vi.restoreAllMocks());

  it('looks up where the request’s changes start once per run, not in the conversation and checkpoint list after every write', async () => {
    const conversationReads = vi.spyOn(ConversationStore.prototype, 'load');
    const checkpointListings = vi.spyOn(CheckpointStore.prototype, 'list');
    const during = { conversation: 0, checkpoints: 0 };
    const { events, workbench, messageId } = await folderAfterOneRun({
      root: await tempFolder(),
      llm: llm(),
      open: async (folder, options) => {
        const opened = await open(folder, options);
        opened.subscribe((event) => {
          const sign = event.type === 'run-started' ? -1 : event.type === 'run-finished' ? 1 : 0;
          during.conversation += sign * conversationReads.mock.calls.length;
          during.checkpoints += sign * checkpointListings.mock.calls.length;
        });
        return opened;
      },
      files: { 'keep.txt': 'keep\n' },
      turns: [
        say('Files.'),
        say(planText('Write')),
        ...Array.from({ length: writes }, (_, index) => call('write_file', { path: `out/file${index}.txt`, content: `line ${index}\n` })),
        say('done'),
        say(`Wrote ${writes} files.`),
      ],
      request: 'Write the files',
    });

    // The count stays live: it follows the writes, up to all of them, before the run finishes.
    const counted = events.filter((event): event is EventOf<'changes-updated'> => event.type === 'changes-updated');
    expect(counted.length).toBeGreaterThanOrEqual(2);
    expect(counted.at(-1)).toMatchObject({ messageId, files: writes, added: writes, removed: 0 });
    // Today's main read both once per recount (one per write, some folded together): 8 times each here.
    expect(during).toEqual({ conversation: 1, checkpoints: 1 });

    // Outside a run (a revert, the Changes view) the ends are looked up afresh each time.
    const before = conversationReads.mock.calls.length;
    await workbench.request('changes:list', { messageId });
    await workbench.request('changes:list', { messageId });
    expect(conversationReads.mock.calls.length - before).toBe(2);
  });

  it('after a write or an edit looks at the files it named, not the whole folder, and counts what a full recount counts', async () => {
    const opened = vi.spyOn(CheckpointStore, 'open');
    const snapshots = vi.spyOn(CheckpointStore.prototype, 'snapshot');
    const during = { scans: 0, snapshots: 0 };
    const root = await tempFolder();
    await symlink('keep.txt', path.join(root, 'link.txt'));
    const { events, workbench, messageId } = await folderAfterOneRun({
      root,
      llm: llm(),
      open: async (folder, options) => {
        const workbench = await open(folder, options);
        const store = (await opened.mock.results[0]!.value) as CheckpointStore;
        workbench.subscribe((event) => {
          const sign = event.type === 'run-started' ? -1 : event.type === 'run-finished' ? 1 : 0;
          during.scans += sign * store.work.scans;
          during.snapshots += sign * snapshots.mock.calls.length;
        });
        return workbench;
      },
      files: { 'keep.txt': 'keep\n', 'src/a.ts': 'a\n', 'src/gone.txt': 'gone\n', 'logs/.gitignore': '*.log\n' },
      turns: [
        say('Files.'),
        say(planText('Write')),
        // Looked at alone: new files in a folder the scans walk, an edit, and an edit back to what it was.
        ...Array.from({ length: writes }, (_, index) => call('write_file', { path: `src/new${index}.txt`, content: `line ${index}\n` })),
        call('edit_file', { path: 'src/a.ts', old_text: 'a', new_text: 'A' }),
        call('edit_file', { path: './src/a.ts', old_text: 'A', new_text: 'a' }),
        // The whole folder again: a file its folder's .gitignore leaves out, a write through a symlink, a command.
        call('write_file', { path: 'logs/debug.log', content: 'ignored\n' }),
        call('write_file', { path: 'link.txt', content: 'through the link\n' }),
        call('run_command', { command: 'rm src/gone.txt' }),
        say('done'),
        say('Wrote the files.'),
      ],
      request: 'Write the files',
    });

    // Every change was preceded by its checkpoint (a scan each); beyond those, only the run's first recount,
    // the three calls that name no file a scan would list and the full recount the run ends with scanned.
    // Today's main scanned after every call.
    const changesMade = writes + 5;
    expect(during.snapshots).toBe(changesMade);
    expect(during.scans - during.snapshots).toBeLessThanOrEqual(5);

    // What the run counted last is what a full recount of the request counts.
    const list = await workbench.request('changes:list', { messageId });
    const counted = events.filter((event): event is EventOf<'changes-updated'> => event.type === 'changes-updated');
    expect(counted.at(-1)).toMatchObject({ messageId, ...list.totals });
    const created = Array.from({ length: writes }, (_, index) => `src/new${index}.txt`);
    expect(list.files.map((file) => [file.path, file.status]).sort()).toEqual(
      // The write through link.txt changed keep.txt; src/a.ts is as it was; logs/debug.log is ignored.
      [...created.map((file) => [file, 'added']), ['src/gone.txt', 'deleted'], ['keep.txt', 'modified']].sort(),
    );
  });

  it('looks at the whole folder after a call whose arguments the user edited at its approval: it may have changed another file', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'keep.txt': 'keep\n' });
    llm().enqueue(
      say('Files.'),
      say(planText('Write')),
      call('write_file', { path: 'a.txt', content: 'a\n' }),
      call('write_file', { path: 'b.txt', content: 'b\n' }),
      say('done'),
      say('Wrote them.'),
    );
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ({ files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false }) });
    const events = recordEvents(workbench);
    const next = eventsInTurn(workbench, events, 'approval-requested');
    const started = await startRun(workbench, 'Write the files');
    await workbench.request('session:approve', { requestId: (await next()).requestId, decision: 'approve' });
    // The second write goes to c.txt instead of the b.txt the model named.
    await workbench.request('session:approve', { requestId: (await next()).requestId, decision: 'approve', args: { path: 'c.txt', content: 'c\n' } });
    expect((await started.finished).status).toBe('done');

    const list = await workbench.request('changes:list', { messageId: started.messageId });
    expect(list.files.map((file) => file.path)).toEqual(['a.txt', 'c.txt']);
    const counted = events.filter((event): event is EventOf<'changes-updated'> => event.type === 'changes-updated');
    expect(counted.at(-1)).toMatchObject({ messageId: started.messageId, ...list.totals });
  });
});
