import { describe, expect, it, vi } from 'vitest';
import type { EventOf } from '../../../engine/contract/index.js';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { ConversationStore } from '../../../engine/store/conversation.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { folderAfterOneRun } from '../../support/folderAfterOneRun.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

const writes = 8;

describe('the live change count of a running request', () => {
  const tempFolder = useTempFolders('rpi-live-recount-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

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
});
