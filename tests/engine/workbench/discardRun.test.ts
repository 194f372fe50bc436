import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunRefusedError } from '../../../engine/contract/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, recordEvents, say } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';
import { cancelledAtStepTwo } from './stoppedRun.js';

describe('discarding a stopped run', () => {
  const tempFolder = useTempFolders('rpi-discard-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('answers the request with where the run stopped, keeps the files, clears rpi/ and is no longer resumable', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'notes.txt': 'a\nb\n' });
    const { workbench, events, started, result } = await cancelledAtStepTwo({ open, llm: llm(), root });
    expect(result.status).toBe('cancelled');
    expect((await workbench.request('workbench:snapshot')).resumable).toBe(true);

    expect((await workbench.request('session:discard')).discarded).toBe(true);

    const notice = 'Run discarded at step 2 of 2 (Second) — files changed so far were kept; undo the request to restore them.';
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.conversation.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'user', text: 'Two steps' },
      { role: 'assistant', text: notice },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'message-added', runId: null, message: snapshot.conversation[1] });
    expect(snapshot).toMatchObject({ resumable: false, running: false, runEvents: [] });
    expect(snapshot.rpi).toEqual({ hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false });
    expect(await readdir(conversationDir(root))).not.toContain('rpi');
    expect(await readFile(path.join(root, 'one.txt'), 'utf8')).toBe('1\n');
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('a\nb\n');
    await expect(followRun(workbench, workbench.request('session:resume'))).rejects.toThrow('Nothing to resume: the last request was answered');

    // The request's checkpoint is kept: undo still takes the folder back to before it.
    expect((await workbench.request('session:undo', { messageId: started.messageId })).restoredFiles).toEqual(['one.txt']);
    expect(await readdir(root)).toEqual(expect.not.arrayContaining(['one.txt']));
  });

  it('says when the run stopped before it could change any file', async () => {
    const root = await tempFolder();
    llm().enqueue({ fault: 'stall-after-headers' });
    const workbench = await open(root, fakeModelOptions(llm()));
    const started = await startRun(workbench, 'Look around');
    await workbench.request('session:cancel');
    expect(await started.finished).toMatchObject({ status: 'cancelled', phase: 'research' });

    expect((await workbench.request('session:discard')).discarded).toBe(true);

    expect((await workbench.request('workbench:snapshot')).conversation.at(-1)?.text).toBe('Run discarded during research, before any file was changed.');
  });

  it('is refused while a run is active, changing nothing', async () => {
    const root = await tempFolder();
    llm().enqueue({ fault: 'stall-after-headers' });
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Look around');

    const refusal = await workbench.request('session:discard').catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(RunRefusedError);
    expect((refusal as Error).message).toBe('A run is in progress in this folder: cancel it first, then discard it.');
    expect(events.filter((event) => event.type === 'message-added')).toHaveLength(1);
    await workbench.request('session:cancel');
    await started.finished;
    expect((await workbench.request('workbench:snapshot')).resumable).toBe(true);
  });

  it('returns false, changing nothing, when there is no request or the last one was answered', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    expect((await workbench.request('session:discard')).discarded).toBe(false);

    llm().enqueue(say('research'), say('# Execution Plan\n\n## Items\n'), say('Nothing needed doing.'));
    expect((await (await startRun(workbench, 'Anything to do?')).finished).status).toBe('done');
    const before = await workbench.request('workbench:snapshot');
    const events = recordEvents(workbench);

    expect((await workbench.request('session:discard')).discarded).toBe(false);

    expect(events).toEqual([]);
    expect((await workbench.request('workbench:snapshot')).conversation).toEqual(before.conversation);
    expect(before.runEvents?.at(-1)).toMatchObject({ type: 'run-finished', status: 'done' });
    expect((await workbench.request('workbench:snapshot')).runEvents).toEqual(before.runEvents);
  });
});
