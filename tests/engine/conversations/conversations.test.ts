import { lstat, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalSettings } from '../../../engine/contract/index.js';
import { conversationFolders, nextEvent } from '../../support/conversationFolders.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const exists = (file: string) => lstat(file).then(() => true, () => false);

/** The message ids the checkpoints of a folder are tagged with. */
async function checkpointRequests(root: string): Promise<string[]> {
  const dir = path.join(root, '.workbench', 'checkpoints', 'manifests');
  const manifests = await Promise.all((await readdir(dir)).map(async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { tag: { messageId: string } }));
  return [...new Set(manifests.map((manifest) => manifest.tag.messageId))].sort();
}

/** A run that writes one file: research, a plan of one step, the write, the step's end, the summary. */
const writes = (name: string, file: string) => [say(`${name} research`), say(planText(`${name} step`)), call('write_file', { path: file, content: `${name}\n` }), say('done'), say(`${name} done.`)];

describe('several conversations in one folder', () => {
  const tempFolder = useTempFolders('rpi-conversations-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('keeps each conversation’s history, rpi/ and plan history in its own folder, the tool log and checkpoints shared, and no request sees another’s messages or plan', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'readme.md': 'project\n' });
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...writes('Alpha', 'alpha.txt'));
    const alpha = await startRun(workbench, 'Alpha request ALPHA-ONLY-WORDS');
    expect((await alpha.finished).status).toBe('done');
    const beta = await workbench.request('conversations:new');
    expect(beta).toMatchObject({ title: 'New conversation', requests: 0, running: false });
    const alphaCalls = llm().chatRequests().length;

    llm().enqueue(...writes('Beta', 'beta.txt'));
    const betaRun = await workbench.request('session:send', { prompt: 'Beta request', conversationId: beta.id });
    expect(betaRun.conversationId).toBe(beta.id);
    expect((await workbench.finished(betaRun.runId)).status).toBe('done');

    // On disk: one folder per conversation, with its own history and run state; the shared parts at the top.
    const folders = await conversationFolders(root);
    expect(Object.keys(folders).sort()).toEqual([alpha.conversationId, beta.id].sort());
    expect(await readFile(path.join(folders[alpha.conversationId]!, 'rpi', 'plan.md'), 'utf8')).toContain('Alpha step');
    expect(await readFile(path.join(folders[beta.id]!, 'rpi', 'plan.md'), 'utf8')).toContain('Beta step');
    expect(await readFile(path.join(folders[beta.id]!, 'conversation.jsonl'), 'utf8')).not.toContain('Alpha');
    const top = await readdir(path.join(root, '.workbench'));
    expect(top).toEqual(expect.arrayContaining(['tool-log.jsonl', 'checkpoints', 'conversations']));
    expect(top).not.toEqual(expect.arrayContaining(['conversation.jsonl']));
    expect(top).not.toContain('rpi');
    expect(await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8')).toMatch(/alpha\.txt[\s\S]*beta\.txt/);

    // Each request the model received for Beta holds nothing of Alpha's request, research or plan.
    const betaRequests = llm().chatRequests().slice(alphaCalls).map(requestText);
    expect(betaRequests.length).toBeGreaterThan(0);
    for (const text of betaRequests) expect(text).not.toMatch(/ALPHA-ONLY-WORDS|Alpha step|Alpha research/);

    // Each snapshot shows its own conversation; the list shows both, the most recent first, titled by their first request.
    const shownAlpha = await workbench.request('workbench:snapshot', { conversationId: alpha.conversationId });
    expect(shownAlpha.conversation.map((message) => message.text)).toEqual(['Alpha request ALPHA-ONLY-WORDS', 'Alpha done.']);
    expect(shownAlpha.rpi.items.map((item) => item.label)).toEqual(['Alpha step']);
    const latest = await workbench.request('workbench:snapshot');
    expect(latest.conversationId).toBe(beta.id);
    expect(latest.conversation.map((message) => message.text)).toEqual(['Beta request', 'Beta done.']);
    // … and its own latest run to replay in the run view, not the folder's latest.
    const runOf = (events: typeof latest.runEvents) => events?.filter((event) => event.type === 'run-started' || event.type === 'run-finished').map((event) => event.runId);
    expect(runOf(shownAlpha.runEvents)).toEqual([alpha.runId, alpha.runId]);
    expect(runOf(latest.runEvents)).toEqual([betaRun.runId, betaRun.runId]);
    const { conversations } = await workbench.request('conversations:list');
    expect(conversations.map(({ id, title, requests, running }) => ({ id, title, requests, running }))).toEqual([
      { id: beta.id, title: 'Beta request', requests: 1, running: false },
      { id: alpha.conversationId, title: 'Alpha request ALPHA-ONLY-WORDS', requests: 1, running: false },
    ]);

    // A second request in Alpha keeps Alpha's first run in Alpha's own runs/.
    llm().enqueue(...writes('Again', 'again.txt'));
    const again = await workbench.request('session:send', { prompt: 'Alpha again', conversationId: alpha.conversationId });
    await workbench.finished(again.runId);
    expect(await readFile(path.join(folders[alpha.conversationId]!, 'runs', alpha.messageId, 'plan.md'), 'utf8')).toContain('- [x] 1. Alpha step');
    expect(await exists(path.join(folders[beta.id]!, 'runs'))).toBe(false);
    // An undo in Alpha forgets Alpha's run view only.
    await workbench.request('session:undo', { messageId: again.messageId, conversationId: alpha.conversationId });
    expect((await workbench.request('workbench:snapshot', { conversationId: alpha.conversationId })).runEvents).toEqual([]);
    expect(runOf((await workbench.request('workbench:snapshot', { conversationId: beta.id })).runEvents)).toEqual([betaRun.runId, betaRun.runId]);
  });

  it('renames (one line, controls made spaces), refuses an empty title and an unknown id, and announces every change', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    const made = await workbench.request('conversations:new');
    const renamed = await workbench.request('conversations:rename', { conversationId: made.id, title: '  Bank\u001b]0;pwned\u0007 statement\n\u202eplan ' });
    expect(renamed.title).toBe('Bank ]0;pwned statement plan');
    await expect(workbench.request('conversations:rename', { conversationId: made.id, title: '\u0007\u001b' })).rejects.toThrow('The title is empty');
    await expect(workbench.request('workbench:snapshot', { conversationId: '../../etc' })).rejects.toThrow('There is no conversation "../../etc" in this folder');
    await expect(workbench.request('conversations:delete', { conversationId: 'c-00000000-0000' })).rejects.toThrow('There is no conversation');
    expect(events.filter((event) => event.type === 'conversation-updated').map((event) => event.type === 'conversation-updated' && event.conversation.title)).toEqual([
      'New conversation',
      'Bank ]0;pwned statement plan',
    ]);
  });

  it('reads a planted title and ignores folders not named as the engine names conversations', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const made = await workbench.request('conversations:new');
    const folder = (await conversationFolders(root))[made.id]!;
    await writeFile(path.join(folder, 'meta.json'), JSON.stringify({ id: made.id, created: 1, title: '\u001b[31mred\u001b[0m\r\ntitle' }));
    await writeTree(root, { '.workbench/conversations/not-an-id/conversation.jsonl': '', '.workbench/conversations/c-EVIL/meta.json': '{}' });
    const { conversations } = await workbench.request('conversations:list');
    expect(conversations.map(({ id, title }) => ({ id, title }))).toEqual([{ id: made.id, title: '[31mred [0m title' }]);
  });

  it('deletes a conversation with its history and kept plans, collects only the checkpoints no other conversation names, and never follows a link', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(outside, { 'precious.txt': 'keep me\n' });
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...writes('Alpha', 'alpha.txt'));
    const alpha = await startRun(workbench, 'Alpha');
    await alpha.finished;
    const beta = await workbench.request('conversations:new');
    llm().enqueue(...writes('Beta', 'beta.txt'));
    const betaRun = await workbench.request('session:send', { prompt: 'Beta', conversationId: beta.id });
    await workbench.finished(betaRun.runId);
    expect(await checkpointRequests(root)).toEqual([alpha.messageId, betaRun.messageId].sort());
    const alphaFolder = (await conversationFolders(root))[alpha.conversationId]!;
    await symlink(outside, path.join(alphaFolder, 'runs-link'));

    const events = recordEvents(workbench);
    const deleted = await workbench.request('conversations:delete', { conversationId: alpha.conversationId });

    expect(deleted.deleted).toBe(alpha.conversationId);
    expect(deleted.collectedCheckpoints).toBeGreaterThan(0);
    expect(await exists(alphaFolder)).toBe(false);
    expect(await readFile(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me\n');
    expect(await readdir(path.join(root, '.workbench', 'conversations'))).toEqual([beta.id]);
    expect(await checkpointRequests(root)).toEqual([betaRun.messageId]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'conversation-deleted', deletedId: alpha.conversationId }));
    // What is left still undoes exactly: Beta's checkpoint is whole.
    await workbench.request('session:undo', { messageId: betaRun.messageId, conversationId: beta.id });
    expect(await exists(path.join(root, 'beta.txt'))).toBe(false);
    expect(await readFile(path.join(root, 'alpha.txt'), 'utf8')).toBe('Alpha\n');
  });

  it('runs one request per folder: a start in another conversation is refused, naming the one running, which the list marks', async () => {
    const root = await tempFolder();
    const ask: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };
    const workbench = await open(root, fakeModelOptions(llm(), { approvals: async () => ask }));
    llm().enqueue(...writes('Alpha', 'alpha.txt'));
    const asked = nextEvent(workbench, 'approval-requested');
    const alpha = await startRun(workbench, 'Alpha');
    const approval = await asked;
    const beta = await workbench.request('conversations:new');

    await expect(workbench.request('session:send', { prompt: 'Beta', conversationId: beta.id })).rejects.toThrow(
      `A run of another conversation (${alpha.conversationId}) is in progress in this folder`,
    );
    const shown = await workbench.request('workbench:snapshot', { conversationId: beta.id });
    expect(shown).toMatchObject({ conversationId: beta.id, running: false, runningConversationId: alpha.conversationId, runEvents: [] });
    // The approval waiting in Alpha's run is there whichever conversation is shown.
    expect(shown.pendingApprovals?.map((pending) => pending.requestId)).toEqual([approval.requestId]);
    expect(shown.conversations?.find((listed) => listed.id === alpha.conversationId)?.running).toBe(true);

    await workbench.request('session:approve', { requestId: approval.requestId, decision: 'approve' });
    expect((await alpha.finished).status).toBe('done');
    expect((await workbench.request('conversations:list')).conversations.every((listed) => !listed.running)).toBe(true);
  });
});
