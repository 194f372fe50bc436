import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openUsedWorkbench } from '../../../engine/index.js';
import { conversationFolders } from '../../support/conversationFolders.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { filesUnder, legacyConversationFiles, writeLegacyFolder } from '../../support/legacyFolder.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { useTempFolders } from '../../support/tempFolder.js';

const conversationsUrl = pathToFileURL(path.resolve('engine/conversations/conversations.ts')).href;

/** Every point of the move, in order, as the engine reports it. */
const steps = [
  'staged',
  'copied conversation.jsonl',
  'copied rpi',
  'copied runs',
  'described',
  'committed',
  'removed conversation.jsonl',
  'removed rpi',
  'removed runs',
];

/** A child process that moves the folder's conversation and kills itself (SIGKILL) right after `step`. */
const mover = `
const [conversationsUrl, stateDir, stopAt] = process.argv.slice(2);
const { Conversations } = await import(conversationsUrl);
const conversations = new Conversations({
  stateDir,
  onMoveStep: (step) => {
    console.log('step: ' + step);
    if (step === stopAt) process.kill(process.pid, 'SIGKILL');
  },
});
await conversations.ensureMoved();
console.log('moved');
`;

describe('moving the single-conversation layout, killed at each point', () => {
  const tempFolder = useTempFolders('rpi-move-crash-');
  const children = useEngineChildren(tempFolder);
  const open = useOpenedWorkbenches();

  it('reports every point of the move in order when nothing stops it', async () => {
    const root = await tempFolder();
    await writeLegacyFolder(root);
    const child = await children(mover, [conversationsUrl, path.join(root, '.workbench'), 'never']);
    const { code, stdout, stderr } = await child.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((line) => line.startsWith('step: ')).map((line) => line.slice(6))).toEqual(steps);
  });

  it.each(steps)('a kill after "%s" leaves one readable layout with nothing lost, and the next change completes the move', async (step) => {
    const root = await tempFolder();
    await writeLegacyFolder(root);
    const conversation = await legacyConversationFiles(root);
    const shown = await readConversation(root);

    const child = await children(mover, [conversationsUrl, path.join(root, '.workbench'), step]);
    const { signal, stdout } = await child.exited;
    expect(signal).toBe('SIGKILL');
    expect(stdout.split('\n')).not.toContain('moved');

    // Read-only: the same conversation, request for request, with its plan and its kept plan.
    expect(await readConversation(root)).toEqual(shown);

    // The next change finishes (or redoes) the move: the conversation whole in its folder, nothing left at the top.
    const workbench = await open(root);
    await workbench.request('conversations:rename', { conversationId: shown.id!, title: 'After the crash' });
    const folders = await conversationFolders(root);
    expect(Object.keys(folders)).toEqual([shown.id]);
    const { 'meta.json': _meta, ...moved } = await filesUnder(folders[shown.id!]!);
    expect(moved).toEqual(conversation);
    expect((await readdir(path.join(root, '.workbench'))).filter((name) => ['rpi', 'runs', 'conversation.jsonl'].includes(name))).toEqual([]);
    expect(await readdir(path.join(root, '.workbench', 'conversations'))).toEqual([shown.id]);
  });
});

/** What a read-only command shows of the folder: its conversation's id, messages, plan, kept plan. */
async function readConversation(root: string) {
  const workbench = await openUsedWorkbench(root);
  if (!workbench) throw new Error('the folder was used before');
  try {
    const snapshot = await workbench.request('workbench:snapshot');
    const firstRequest = snapshot.conversation[0]!.id;
    const kept = await workbench.request('session:run-file', { messageId: firstRequest, file: 'plan' });
    return { id: snapshot.conversationId, messages: snapshot.conversation, items: snapshot.rpi.items, kept, runs: snapshot.runs };
  } finally {
    await workbench.close();
  }
}
