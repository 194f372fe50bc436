import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunRefusedError } from '../../../engine/contract/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, greetingDoneWorkbookFailed, phaseOfRequest } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { cancelledAtStepTwo } from './stoppedRun.js';
import { keptFile, keptRuns, oneStep, request, threeRequests } from '../../support/planHistory.js';

const rpiFile = (root: string, name: string) => path.join(root, '.workbench', 'rpi', name);

const greetAndConvert = greetingDoneWorkbookFailed('Research of the first request.');


describe('plan history: each request keeps its research and plan', () => {
  const tempFolder = useTempFolders('rpi-plan-history-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();
  const spawnEngine = useEngineChildren(tempFolder);

  it('keeps the first request’s research and plan, outcome marks included, in runs/<its id>/ when a second request clears rpi/', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...greetAndConvert);
    const first = await request(workbench, 'Greet and convert');
    const firstResearch = await readFile(rpiFile(root, 'research.md'), 'utf8');
    const firstPlan = await readFile(rpiFile(root, 'plan.md'), 'utf8');
    expect(await keptRuns(root)).toEqual([]);

    llm().enqueue(...oneStep('Tidy'));
    const second = await request(workbench, 'Tidy up');

    expect(await keptRuns(root)).toEqual([first]);
    expect(await readFile(keptFile(root, first, 'research.md'), 'utf8')).toBe(firstResearch);
    const kept = await readFile(keptFile(root, first, 'plan.md'), 'utf8');
    expect(kept).toBe(firstPlan);
    expect(kept).toMatch(/^- \[x\] 1\. Greeting — do greeting$/m);
    expect(kept).toMatch(/^- \[!\] 2\. Workbook — do workbook \[Failed: .*no spreadsheet writer is available.*\]$/m);
    // The latest request's run is rpi/ itself.
    expect(await readFile(rpiFile(root, 'plan.md'), 'utf8')).toMatch(/^- \[x\] 1\. Tidy/m);

    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.runs).toEqual({
      [first]: { research: true, plan: { done: 1, failed: 1, total: 2 }, checks: { passed: 0, failed: 0, denied: 0, none: 2 } },
      [second]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } },
    });
    const earlierPlan = await workbench.request('session:run-file', { messageId: first, file: 'plan' });
    expect(earlierPlan).toMatchObject({ text: firstPlan });
    expect(earlierPlan.text !== null && earlierPlan.items?.map(({ label, status, failure }) => ({ label, status, failure }))).toEqual([
      { label: 'Greeting', status: 'done', failure: undefined },
      { label: 'Workbook', status: 'failed', failure: expect.stringContaining('no spreadsheet writer is available') },
    ]);
    expect(await workbench.request('session:run-file', { messageId: first, file: 'research' })).toEqual({ text: firstResearch });
    expect(await workbench.request('session:run-file', { messageId: second, file: 'plan' })).toMatchObject({ text: await readFile(rpiFile(root, 'plan.md'), 'utf8') });
  });

  it('reads only requests of the conversation, by id, never a path given as an id', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...oneStep('Only'));
    await request(workbench, 'Do one thing');
    const answer = (await workbench.request('workbench:snapshot')).conversation[1]!;

    await expect(workbench.request('session:run-file', { messageId: answer.id, file: 'plan' })).rejects.toThrow(
      new RunRefusedError('That message is an answer: research and plans belong to requests, so ask with the id of a user message.'),
    );
    for (const id of ['../rpi', '..', 'm-does-not-exist', '/etc']) {
      await expect(workbench.request('session:run-file', { messageId: id, file: 'plan' })).rejects.toThrow(`There is no message "${id}" in this folder's conversation.`);
    }
  });

  it('undo removes the kept runs of the requests it cuts, and keeps those before', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const [first, second] = await threeRequests(workbench, llm());
    expect(await keptRuns(root)).toEqual([first, second].sort());

    await workbench.request('session:undo', { messageId: second });

    expect(await keptRuns(root)).toEqual([first]);
    expect(existsSync(rpiFile(root, 'plan.md'))).toBe(false);
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.runs).toEqual({ [first]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } } });
    expect((await workbench.request('session:run-file', { messageId: first, file: 'plan' })).text).toMatch(/^- \[x\] 1\. First/m);
  });

  it('regenerate removes the kept run of the request it sends again; the new run is the one in rpi/', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...oneStep('First'), ...oneStep('Second'));
    const first = await request(workbench, 'One');
    await request(workbench, 'Two');
    expect(await keptRuns(root)).toEqual([first]);

    llm().enqueue(...oneStep('Again'));
    const again = await followRun(workbench, workbench.request('session:regenerate', { messageId: first }));
    expect((await again.finished).status).toBe('done');

    expect(await keptRuns(root)).toEqual([]);
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.conversation.map((message) => message.text)).toEqual(['One', 'Summary of Again.']);
    expect(snapshot.runs).toEqual({ [again.messageId]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } } });
    await expect(workbench.request('session:run-file', { messageId: first, file: 'plan' })).rejects.toThrow(`There is no message "${first}"`);
  });

  it('discarding a stopped run keeps its research and plan for its request, as a newer request would', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'notes.txt': 'a\nb\n' });
    const { workbench, started } = await cancelledAtStepTwo({ open, llm: llm(), root });
    const plan = await readFile(rpiFile(root, 'plan.md'), 'utf8');

    expect((await workbench.request('session:discard')).discarded).toBe(true);

    expect(await keptRuns(root)).toEqual([started.messageId]);
    expect(await readFile(keptFile(root, started.messageId, 'plan.md'), 'utf8')).toBe(plan);
    expect(plan).toMatch(/^- \[x\] 1\. First[^\n]*\n- \[ \] 2\. Second/m);
    expect((await workbench.request('workbench:snapshot')).runs).toEqual({ [started.messageId]: { research: true, plan: { done: 1, failed: 0, total: 2 }, checks: { passed: 0, failed: 0, denied: 0, none: 2 } } });
    expect(await workbench.request('session:run-file', { messageId: started.messageId, file: 'plan' })).toMatchObject({ text: plan });
  });

  it('a request whose run wrote nothing has no summary, and its files answer with why', async () => {
    const root = await tempFolder();
    llm().enqueue({ fault: 'stall-after-headers' });
    const workbench = await open(root, fakeModelOptions(llm()));
    const started = await startRun(workbench, 'Look around');
    await workbench.request('session:cancel');
    await started.finished;
    expect(await workbench.request('session:run-file', { messageId: started.messageId, file: 'research' })).toEqual({ text: null, reason: 'Research has not been written yet for this request.' });

    llm().enqueue(...oneStep('Next'));
    await request(workbench, 'Next thing');

    expect(await keptRuns(root)).toEqual([]);
    expect(Object.keys((await workbench.request('workbench:snapshot')).runs ?? {})).not.toContain(started.messageId);
    expect(await workbench.request('session:run-file', { messageId: started.messageId, file: 'plan' })).toEqual({
      text: null,
      reason: 'No plan was kept for this request: its run stopped before writing one, or it ran before the workbench kept plan history.',
    });
  });

  it('keeps the earlier run before clearing rpi/: an engine killed in between loses neither copy, and resume starts the new request afresh', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...greetAndConvert);
    const first = await request(workbench, 'Greet and convert');
    const firstPlan = await readFile(rpiFile(root, 'plan.md'), 'utf8');
    await workbench.close();

    // The child dies the moment the second request is in the conversation: after keeping, before clearing.
    const child = await spawnEngine(
      `import { existsSync } from 'node:fs';
       const { openWorkbench } = await import(process.env.ENGINE_URL);
       const [folder, baseUrl] = process.argv.slice(2);
       const workbench = await openWorkbench(folder, { llmSettings: async () => ({ baseUrl, apiKey: null, model: 'fake-model', contextWindow: 8000, toolMode: 'native' }) });
       workbench.subscribe((event) => {
         if (event.type !== 'message-added' || event.message.role !== 'user') return;
         console.log('rpi plan there: ' + existsSync(folder + '/.workbench/rpi/plan.md'));
         process.kill(process.pid, 'SIGKILL');
       });
       await workbench.request('session:send', { prompt: 'Second request' });`,
      [root, llm().baseUrl],
    );
    const { signal, stdout } = await child.exited;
    expect(signal).toBe('SIGKILL');
    expect(stdout).toContain('rpi plan there: true');

    expect(readFileSync(keptFile(root, first, 'plan.md'), 'utf8')).toBe(firstPlan);
    expect(readFileSync(rpiFile(root, 'plan.md'), 'utf8')).toBe(firstPlan);

    const before = llm().chatRequests().length;
    llm().enqueue(...oneStep('Second'));
    const reopened = await open(root, fakeModelOptions(llm()));
    const resumed = await reopened.finished((await reopened.request('session:resume')).runId);

    expect(resumed.status).toBe('done');
    // Keeping twice was harmless, and the new request ran from its research, not on the old plan.
    expect(llm().chatRequests().slice(before).map(phaseOfRequest)).toEqual(['research', 'plan', 'implement', 'summary']);
    expect(await readFile(keptFile(root, first, 'plan.md'), 'utf8')).toBe(firstPlan);
    expect(await readFile(rpiFile(root, 'plan.md'), 'utf8')).toMatch(/^- \[x\] 1\. Second/m);
    const snapshot = await reopened.request('workbench:snapshot');
    const second = snapshot.conversation[2]!;
    expect(snapshot.runs).toEqual({
      [first]: { research: true, plan: { done: 1, failed: 1, total: 2 }, checks: { passed: 0, failed: 0, denied: 0, none: 2 } },
      [second.id]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } },
    });
  });
});
