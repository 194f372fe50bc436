import { lstat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { betaRequest, interleavedConversations, workbenchDriver } from '../../support/interleavedConversations.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

const exists = (file: string) => lstat(file).then(() => true, () => false);

describe('undo in one of several conversations', () => {
  const tempFolder = useTempFolders('rpi-cross-undo-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  const opened = async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const text = (file: string) => readFile(path.join(root, file), 'utf8');
    return { root, workbench, text, ...(await interleavedConversations(workbenchDriver(workbench), llm())) };
  };

  it('puts back only the files its requests changed, names the file a later request of another conversation changed, and keeps it as chosen', async () => {
    const { root, workbench, text, alpha, beta } = await opened();
    const undo = { messageId: alpha.firstRequest, conversationId: alpha.conversationId };

    const preview = await workbench.request('session:undo-preview', undo);
    expect(preview.map(({ path: file, change, kind }) => `${change} ${kind} ${file}`)).toEqual([
      'removed folder made',
      'removed file made/new.txt',
      'restored file mine.txt',
      'restored file shared.txt',
      'removed file shell.txt',
    ]);
    expect(preview.find((file) => file.path === 'shared.txt')?.conflict).toEqual({
      conversationId: beta.conversationId,
      conversationTitle: betaRequest,
      messageId: beta.request,
      request: betaRequest,
    });
    expect(preview.filter((file) => file.conflict).map((file) => file.path)).toEqual(['shared.txt']);

    // Told nothing of the conflict, the undo refuses and changes nothing.
    await expect(workbench.request('session:undo', undo)).rejects.toThrow(/Another conversation changed shared\.txt \(changed by "Beta: reword the shared notes".*nothing was undone/);
    expect(await text('mine.txt')).toBe('alpha mine again\n');

    const undone = await workbench.request('session:undo', { ...undo, choices: { 'shared.txt': 'keep' } });

    expect(undone.restoredFiles.sort()).toEqual(['made/new.txt', 'mine.txt', 'shell.txt']);
    expect(undone.keptFiles).toEqual(['shared.txt']);
    expect(await text('mine.txt')).toBe('mine base\n');
    expect(await exists(path.join(root, 'made'))).toBe(false);
    expect(await exists(path.join(root, 'shell.txt'))).toBe(false);
    expect(await text('shared.txt')).toBe('beta\n');
    expect(await text('other.txt')).toBe('beta other\n');
    expect(await text('untouched.txt')).toBe('untouched\n');
    const alphaShown = await workbench.request('workbench:snapshot', { conversationId: alpha.conversationId });
    expect(alphaShown?.conversation).toEqual([]);
    const betaShown = await workbench.request('workbench:snapshot', { conversationId: beta.conversationId });
    expect(betaShown?.conversation.map((message) => message.text)).toEqual([betaRequest, 'Beta done.']);

    // The undo was checkpointed: the Changes view's revert takes it back.
    expect(undone.takeBack?.paths.sort()).toEqual(['made/new.txt', 'mine.txt', 'shell.txt']);
    const takenBack = await workbench.request('changes:undo-revert', undone.takeBack!);
    expect(takenBack.files.map((file) => `${file.change} ${file.path}`).sort()).toEqual(['recreated made/new.txt', 'recreated shell.txt', 'restored mine.txt']);
    expect(await text('mine.txt')).toBe('alpha mine again\n');
    expect(await text('made/new.txt')).toBe('alpha new\n');
    expect(await text('shell.txt')).toBe('alpha shell\n');
    expect(await text('shared.txt')).toBe('beta\n');
  });

  it('takes this conversation’s version of a conflicting file when chosen, and regenerate follows the same choices', async () => {
    const { workbench, text, alpha } = await opened();

    const undone = await workbench.request('session:undo', { messageId: alpha.secondRequest, conversationId: alpha.conversationId });
    // Beta ran before Alpha's second request: nothing of it is later, so nothing asks.
    expect(undone).toMatchObject({ restoredFiles: ['mine.txt'], keptFiles: [] });
    expect(await text('mine.txt')).toBe('alpha mine\n');

    llm().enqueue(say('Again'), say(planText('Again step')), call('write_file', { path: 'mine.txt', content: 'regenerated\n' }), say('done'), say('Regenerated.'));
    const run = await workbench.request('session:regenerate', { messageId: alpha.firstRequest, conversationId: alpha.conversationId, choices: { 'shared.txt': 'take' } });
    expect((await workbench.finished(run.runId)).status).toBe('done');
    expect(await text('shared.txt')).toBe('base\n');
    expect(await text('mine.txt')).toBe('regenerated\n');
    expect(await text('other.txt')).toBe('beta other\n');
  });

  it('refuses an undo whose preview showed no conflict when another conversation changed the file since', async () => {
    const { root, workbench, text, alpha, beta } = await opened();
    const undo = { messageId: alpha.secondRequest, conversationId: alpha.conversationId };
    expect((await workbench.request('session:undo-preview', undo)).filter((file) => file.conflict)).toEqual([]);

    // Meanwhile Beta's next request changes mine.txt.
    llm().enqueue(say('Beta again'), say(planText('Beta mine')), call('write_file', { path: 'mine.txt', content: 'beta mine\n' }), say('done'), say('Beta mine done.'));
    const betaAgain = await workbench.request('session:send', { prompt: 'Beta: touch mine', conversationId: beta.conversationId });
    await workbench.finished(betaAgain.runId);
    await writeFile(path.join(root, 'untouched.txt'), 'edited by hand\n');

    await expect(workbench.request('session:undo', { ...undo, choices: {} })).rejects.toThrow(/Another conversation changed mine\.txt/);
    expect(await text('mine.txt')).toBe('beta mine\n');
    const taken = await workbench.request('session:undo', { ...undo, choices: { 'mine.txt': 'take' } });
    expect(taken).toMatchObject({ restoredFiles: ['mine.txt'], keptFiles: [] });
    expect(await text('mine.txt')).toBe('alpha mine\n');
    expect(await text('untouched.txt')).toBe('edited by hand\n');
  });
});
