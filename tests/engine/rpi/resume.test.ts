import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import type { ScriptedTurn } from '../../support/fakeLlm/index.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, firstUserText, phaseOfRequest, planText, recordEvents, requestsForStep, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { followRun, startRun } from '../../support/startRun.js';

function waitForEvent(events: WorkbenchEvent[], workbench: { subscribe(listener: (event: WorkbenchEvent) => void): () => void }, match: (event: WorkbenchEvent) => boolean): Promise<void> {
  if (events.some(match)) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = workbench.subscribe((event) => {
      if (!match(event)) return;
      stop();
      resolve();
    });
  });
}

describe('stopping and resuming a run', () => {
  const tempFolder = useTempFolders('rpi-resume-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();
  const spawnEngine = useEngineChildren(tempFolder);
  const startLlm = useFakeLlmStarter();

  it('cancels promptly during a command, leaves the item pending, and resume finishes without redoing done items', async () => {
    const root = await tempFolder();
    llm().enqueue(
      say('research'),
      say(planText('First', 'Second')),
      call('write_file', { path: 'one.txt', content: '1\n' }),
      say('First done.'),
      call('run_command', { command: 'sleep 30' }),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Two steps');
    await waitForEvent(events, workbench, (event) => event.type === 'tool-started' && event.tool === 'run_command');

    expect((await workbench.request('session:cancel')).cancelled).toBe(true);
    const stopped = await started.finished;

    expect(stopped).toMatchObject({ status: 'cancelled', phase: 'implement' });
    expect(stopped.error).toMatch(/Resume/);
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', status: 'cancelled', phase: 'implement' });
    expect(events.filter((event) => event.type === 'tool-finished').at(-1)).toMatchObject({ summary: expect.stringMatching(/cancelled by the user/) });
    let plan = await readFile(path.join(conversationDir(root), 'rpi/plan.md'), 'utf8');
    expect(plan).toContain('- [x] 1. First');
    expect(plan).toContain('- [ ] 2. Second');
    expect((await workbench.request('workbench:snapshot')).running).toBe(false);

    llm().enqueue(call('write_file', { path: 'two.txt', content: '2\n' }), say('Second done.'), say('Both steps done.'));
    const resumed = await followRun(workbench, workbench.request('session:resume'));
    expect(resumed.messageId).toBe(started.messageId);
    expect(await resumed.finished).toMatchObject({ status: 'done', summary: 'Both steps done.' });

    plan = await readFile(path.join(conversationDir(root), 'rpi/plan.md'), 'utf8');
    expect(plan).toContain('- [x] 2. Second');
    expect(requestsForStep(llm(), 1)).toBe(2);
    expect(requestsForStep(llm(), 2)).toBe(3);
    expect(llm().chatRequests().map(phaseOfRequest).filter((phase) => phase === 'research' || phase === 'plan')).toEqual(['research', 'plan']);
    const summary = llm().chatRequests().at(-1)!;
    expect(firstUserText(summary)).toMatch(/one\.txt \(created/);
    expect(firstUserText(summary)).toMatch(/two\.txt \(created/);
    await expect(followRun(workbench, workbench.request('session:resume'))).rejects.toThrow('Nothing to resume: the last request was answered');
  });

  it('refuses to resume when run.json was emptied, redoing nothing, and says how to start over', async () => {
    const root = await tempFolder();
    llm().enqueue(say('research'), say(planText('First', 'Second')), call('write_file', { path: 'one.txt', content: '1\n' }), say('First done.'), call('run_command', { command: 'sleep 30' }));
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Two steps');
    await waitForEvent(events, workbench, (event) => event.type === 'tool-started' && event.tool === 'run_command');
    await workbench.request('session:cancel');
    await started.finished;
    await writeFile(path.join(conversationDir(root), 'rpi/run.json'), '');
    const shown = `${path.relative(root, conversationDir(root))}/rpi/run.json`;
    const requests = llm().chatRequests().length;

    await expect(followRun(workbench, workbench.request('session:resume'))).rejects.toThrow(
      `Cannot resume: ${shown}, the record of the stopped run, is unreadable (empty or not a run record), so its research and plan cannot be tied to this request. Delete that file to do the request again from Research.`,
    );
    expect(llm().chatRequests()).toHaveLength(requests);
    expect(await readFile(path.join(conversationDir(root), 'rpi/plan.md'), 'utf8')).toContain('- [x] 1. First');
  });

  it('resumes after the engine process is killed mid-item: done items never run again', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    const turns: ScriptedTurn[] = [
      say('research'),
      say(planText('First', 'Second', 'Third')),
      call('write_file', { path: 'one.txt', content: '1\n' }),
      say('First done.'),
      call('write_file', { path: 'two.txt', content: 'half\n' }),
      { fault: 'stall-after-headers' },
    ];
    let stalled!: () => void;
    const stallReached = new Promise<void>((resolve) => (stalled = resolve));
    const fake = await startLlm({
      script: (_request, index) => {
        if (index === turns.length - 1) stalled();
        return turns[index] ?? say('unexpected request');
      },
    });
    const child = await spawnEngine(
      `const { openWorkbench } = await import(process.env.ENGINE_URL);
       const [folder, baseUrl] = process.argv.slice(2);
       const workbench = await openWorkbench(folder, {
         llmSettings: async () => ({ baseUrl, apiKey: null, model: 'fake-model', contextWindow: 8000, toolMode: 'native' }),
         llmClient: { idleTimeoutMs: 120000 },
         approvals: async () => ({ files: 'auto', commands: 'auto', timeoutSeconds: 600, reviewPlan: false }),
       });
       workbench.subscribe((event) => console.log(JSON.stringify(event)));
       await workbench.request('session:send', { prompt: 'Three steps' });`,
      [root, fake.baseUrl],
    );
    await stallReached;
    expect(await readFile(path.join(root, 'two.txt'), 'utf8')).toBe('half\n');
    child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    turns.push(say('Second done on resume.'), say('Third done.'), say('All three done.'));
    const workbench = await open(root, fakeModelOptions(fake));
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.rpi.items.map((item) => item.status)).toEqual(['done', 'pending', 'pending']);
    const result = await workbench.finished((await workbench.request('session:resume')).runId);

    expect(result).toMatchObject({ status: 'done', summary: 'All three done.' });
    expect(requestsForStep(fake, 1)).toBe(2);
    expect(requestsForStep(fake, 2)).toBe(3);
    expect(requestsForStep(fake, 3)).toBe(1);
    expect(fake.chatRequests().filter((request) => phaseOfRequest(request) === 'research')).toHaveLength(1);
    expect(await readFile(path.join(conversationDir(root), 'rpi/plan.md'), 'utf8')).toMatch(/- \[x\] 1\. First[\s\S]*- \[x\] 2\. Second[\s\S]*- \[x\] 3\. Third/);
    expect((await workbench.request('workbench:snapshot')).conversation.map((message) => message.role)).toEqual(['user', 'assistant']);
  });
});
