import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, eventTrail, fakeModelOptions, firstUserText, phaseOfRequest, planText, recordEvents, say } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

const research = '## Request\nAdd a greeting module.\n\n## Relevant files\n- src/index.ts';
const rpi = (root: string, file: string) => path.join(conversationDir(root), 'rpi', file);

describe('the RPI orchestrator through the workbench facade', () => {
  const tempFolder = useTempFolders('rpi-orchestrator-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'src/index.ts': 'export const version = 1;\n', 'README.md': '# demo\n' });
    return root;
  }

  it('runs a full cycle: research.md, plan.md, each item in order, a streamed summary saved as the answer', async () => {
    const root = await project();
    llm().enqueue(
      call('read_file', { path: 'src/index.ts' }),
      say(research),
      say(planText('Greeting', 'Export')),
      call('write_file', { path: 'src/greeting.ts', content: 'export const hi = "hi";\n' }),
      say('Wrote src/greeting.ts and re-read it.'),
      call('edit_file', { path: 'src/index.ts', old_text: 'export const version = 1;', new_text: 'export const version = 1;\nexport * from "./greeting";' }),
      say('Exported the greeting from src/index.ts.'),
      say('Added **src/greeting.ts** and exported it from src/index.ts.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const started = await startRun(workbench, 'Add a greeting module');
    const result = await started.finished;

    expect(result).toMatchObject({ status: 'done', summary: 'Added **src/greeting.ts** and exported it from src/index.ts.' });
    expect(await readFile(path.join(root, 'src/greeting.ts'), 'utf8')).toBe('export const hi = "hi";\n');
    expect(await readFile(path.join(root, 'src/index.ts'), 'utf8')).toContain('export * from "./greeting";');
    expect(await readFile(rpi(root, 'research.md'), 'utf8')).toBe(research);
    const plan = await readFile(rpi(root, 'plan.md'), 'utf8');
    expect(plan).toContain('<!-- original_count: 2 -->');
    expect(plan).toContain('- [x] 1. Greeting');
    expect(plan).toContain('- [x] 2. Export');

    expect(eventTrail(events, ['run-started', 'phase-started', 'phase-completed', 'implement-progress', 'run-finished'])).toEqual([
      'run-started',
      'phase-started:research',
      'phase-completed:research',
      'phase-started:plan',
      'phase-completed:plan',
      'phase-started:implement',
      'implement-progress',
      'implement-progress',
      'phase-completed:implement',
      'phase-started:summary',
      'phase-completed:summary',
      'run-finished',
    ]);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => events[0]!.seq + index));
    expect(events.every((event) => event.type === 'message-added' || event.type === 'conversation-updated' || event.runId === started.runId)).toBe(true);
    expect(events.filter((event) => event.type === 'implement-progress')).toMatchObject([
      { current: 1, total: 2, label: 'Greeting' },
      { current: 2, total: 2, label: 'Export' },
    ]);
    const deltas = events.flatMap((event) => (event.type === 'summary-delta' ? [event.text] : []));
    expect(deltas.join('')).toBe(result.summary);
    const messages = events.flatMap((event) => (event.type === 'message-added' ? [event.message] : []));
    expect(messages.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'user', text: 'Add a greeting module' },
      { role: 'assistant', text: result.summary },
    ]);
    // Only the summary streams: no delta before the summary phase starts.
    const summaryStart = events.findIndex((event) => event.type === 'phase-started' && event.phase === 'summary');
    expect(events.findIndex((event) => event.type === 'summary-delta')).toBeGreaterThan(summaryStart);
    const tools = events.filter((event) => event.type === 'tool-finished');
    expect(tools).toHaveLength(3);
    expect(tools.every((event) => event.type === 'tool-finished' && event.ok)).toBe(true);
    const usage = events.filter((event) => event.type === 'usage');
    expect(usage).toHaveLength(llm().chatRequests().length);
    expect(usage[0]).toMatchObject({ phase: 'research', contextWindow: 32_000 });
    expect(events.filter((event) => event.type === 'plan-updated').at(-1)).toMatchObject({
      items: [{ status: 'done' }, { status: 'done' }],
    });

    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.running).toBe(false);
    expect(snapshot.conversation.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('tags a research failure with its phase, names the server, and writes neither research nor plan', async () => {
    const root = await project();
    llm().enqueue({ fault: 'http-401' });
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Do something')).finished;

    expect(result.status).toBe('failed');
    expect(result.phase).toBe('research');
    expect(result.error).toContain(llm().baseUrl);
    expect(result.error).toMatch(/API key/);
    expect(eventTrail(events, ['phase-started', 'phase-completed', 'run-finished'])).toEqual([
      'phase-started:research',
      'phase-completed:research',
      'run-finished',
    ]);
    expect(events.find((event) => event.type === 'phase-completed')).toMatchObject({ ok: false, error: result.error });
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', status: 'failed', phase: 'research', error: result.error });
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.rpi).toMatchObject({ hasResearch: false, hasPlan: false });
    expect(snapshot.conversation.map((message) => message.role)).toEqual(['user']);
  });

  it('retries a failed item once with the failure reason in its fresh context, and marks it done when the retry works', async () => {
    const root = await project();
    llm().enqueue(
      say(research),
      say(planText('Greeting')),
      say('I could not find where to put it.\nFAILED: the target folder does not exist'),
      call('write_file', { path: 'src/greeting.ts', content: 'export {};\n' }),
      say('Created src/greeting.ts.'),
      say('Done.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));

    const result = await (await startRun(workbench, 'Add a greeting')).finished;

    expect(result.status).toBe('done');
    const implement = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement');
    expect(firstUserText(implement[0]!)).not.toContain('first attempt');
    expect(firstUserText(implement[1]!)).toContain('A first attempt at this item failed: the target folder does not exist');
    expect(implement[1]!.messages).toHaveLength(2);
    expect(await readFile(rpi(root, 'plan.md'), 'utf8')).toContain('- [x] 1. Greeting');
  });

  it('marks an item [!] with its reason when the retry fails too, and goes on with the next item', async () => {
    const root = await project();
    llm().enqueue(
      say(research),
      say(planText('Broken', 'Fine')),
      say('FAILED: the build tool is missing'),
      say('FAILED: still no build tool'),
      say('Item two done.'),
      say('One item failed, one worked.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Two things')).finished;

    expect(result.status).toBe('done');
    const plan = await readFile(rpi(root, 'plan.md'), 'utf8');
    expect(plan).toContain('- [!] 1. Broken — do broken [Failed: still no build tool]');
    expect(plan).toContain('- [x] 2. Fine');
    expect(events.filter((event) => event.type === 'implement-progress').map((event) => event.type === 'implement-progress' && event.label)).toEqual([
      'Broken',
      'Fine',
    ]);
    const summaryRequest = llm().chatRequests().find((request) => phaseOfRequest(request) === 'summary')!;
    expect(firstUserText(summaryRequest)).toContain('[Failed: still no build tool]');
  });

  it('clears the previous run’s research and plan when a new message arrives', async () => {
    const root = await project();
    llm().enqueue(say('first research'), say(planText('Old item')), say('done'), say('First summary.'));
    const workbench = await open(root, fakeModelOptions(llm()));
    await (await startRun(workbench, 'First request')).finished;
    expect(await readFile(rpi(root, 'plan.md'), 'utf8')).toContain('Old item');

    llm().enqueue(say('second research'), say(planText('New item')), say('done'), say('Second summary.'));
    const result = await (await startRun(workbench, 'Second request')).finished;

    expect(result.status).toBe('done');
    const second = llm().chatRequests().slice(4);
    expect(second.map(phaseOfRequest)).toEqual(['research', 'plan', 'implement', 'summary']);
    expect(firstUserText(second[1]!)).toContain('second research');
    expect(firstUserText(second[1]!)).not.toContain('first research');
    const plan = await readFile(rpi(root, 'plan.md'), 'utf8');
    expect(plan).toContain('New item');
    expect(plan).not.toContain('Old item');
    expect((await workbench.request('workbench:snapshot')).conversation.map((message) => message.text)).toEqual([
      'First request',
      'First summary.',
      'Second request',
      'Second summary.',
    ]);
  });

  it('goes straight to the summary when the plan has no items', async () => {
    const root = await project();
    llm().enqueue(say(research), say('# Execution Plan\n\nNothing needs to change: the module exists.\n\n## Items\n'), say('Nothing to change.'));
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Check the module')).finished;

    expect(result).toMatchObject({ status: 'done', summary: 'Nothing to change.' });
    expect(llm().chatRequests().map(phaseOfRequest)).toEqual(['research', 'plan', 'summary']);
    expect(eventTrail(events, ['phase-started'])).toEqual(['phase-started:research', 'phase-started:plan', 'phase-started:summary']);
  });

  it('appends new items the model proposes, up to twice the original count, and warns about the rest', async () => {
    const root = await project();
    llm().enqueue(
      say(research),
      say(planText('One', 'Two')),
      say('Done.\n- [ ] 3. Extra A — found more work\n- [ ] 4. Extra B — and more\n- [ ] 5. Extra C — and more\n'),
      say('Two done.'),
      say('A done.'),
      say('B done.'),
      say('Summary.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Grow the plan')).finished;

    expect(result.status).toBe('done');
    const plan = await readFile(rpi(root, 'plan.md'), 'utf8');
    expect(plan).toContain('- [x] 3. Extra A');
    expect(plan).toContain('- [x] 4. Extra B');
    expect(plan).not.toContain('Extra C');
    expect(events.find((event) => event.type === 'warning')).toMatchObject({ message: expect.stringContaining('Dropped 1 new plan item') });
    expect(events.filter((event) => event.type === 'implement-progress').map((event) => event.type === 'implement-progress' && `${event.current}/${event.total}`)).toEqual([
      '1/2',
      '2/4',
      '3/4',
      '4/4',
    ]);
  });

  it('refuses a second message while a run is active, with a clear reason', async () => {
    const root = await project();
    llm().enqueue(say(research, { delayMs: 100 }), say('# Execution Plan\n\n## Items\n'), say('Nothing.'));
    const workbench = await open(root, fakeModelOptions(llm()));

    const runningAtFinish = new Promise<boolean>((resolve) =>
      workbench.subscribe((event) => {
        if (event.type === 'run-finished') void workbench.request('workbench:snapshot').then((snapshot) => resolve(snapshot.running));
      }),
    );
    const first = await startRun(workbench, 'First');
    await expect(startRun(workbench, 'Second')).rejects.toThrow('A run is already in progress in this folder');
    await expect(followRun(workbench, workbench.request('session:resume'))).rejects.toThrow('A run is already in progress in this folder');
    expect((await workbench.request('workbench:snapshot')).running).toBe(true);
    expect((await first.finished).status).toBe('done');
    expect(await runningAtFinish).toBe(false);
    expect((await workbench.request('workbench:snapshot')).conversation.map((message) => message.text)).toEqual(['First', 'Nothing.']);
  });

  it('refuses to run without a configured model, before touching the conversation', async () => {
    const root = await project();
    const workbench = await open(root, {});
    await expect(startRun(workbench, 'Hello')).rejects.toThrow('No model is configured');
    const noModel = await open(await project(), { llmSettings: async () => ({ baseUrl: llm().baseUrl, apiKey: null, model: ' ', contextWindow: 8000, toolMode: 'native' }) });
    await expect(startRun(noModel, 'Hello')).rejects.toThrow('No model is chosen');
    expect((await workbench.request('workbench:snapshot')).conversation).toEqual([]);
    await expect(followRun(workbench, workbench.request('session:resume'))).rejects.toThrow('No model is configured');
  });
});
