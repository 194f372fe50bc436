import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepUsage, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { ScriptedTurn } from '../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { keptFile, oneStep, request } from '../../support/planHistory.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { nextEvent } from './stoppedRun.js';
import { conversationDir } from '../../support/conversationDir.js';
import { stepUsage } from '../../support/stepUsage.js';

/** How messages name the folder's one conversation: `.workbench/conversations/<id>`. */
const shownConversation = (root: string) => path.relative(root, conversationDir(root));

const usageFile = (root: string) => path.join(conversationDir(root), 'rpi', 'usage.jsonl');

/** A turn whose server reports these counts and, OpenRouter-style, what the call cost. */
function priced(turn: ScriptedTurn, promptTokens: number, cachedTokens: number, completionTokens: number, costUsd: number): ScriptedTurn {
  return { ...turn, usage: { promptTokens, cachedTokens, completionTokens, costUsd }, usageShape: 'openrouter' };
}

/** A turn whose server reports counts but no cost, for a model no catalog prices (`fake-model` on a local server). */
function unpriced(turn: ScriptedTurn, promptTokens: number, completionTokens: number): ScriptedTurn {
  return { ...turn, usage: { promptTokens, completionTokens } };
}

/** A step as this folder's runs record it: every call by fake-model. */
const step = (phase: StepUsage['phase'], figures: Partial<StepUsage>): StepUsage => stepUsage(phase, { model: 'fake-model', ...figures });

async function usageLines(root: string): Promise<Record<string, unknown>[]> {
  return (await readFile(usageFile(root), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const fakeModelEverywhere = { research: 'fake-model', plan: 'fake-model', implement: 'fake-model', summary: 'fake-model' };

const warningsIn = (events: readonly WorkbenchEvent[]) => events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));

describe('usage kept with the run', () => {
  const tempFolder = useTempFolders('rpi-usage-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('writes each model call to rpi/usage.jsonl under its step, and tells the sums per step as they grow', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    llm().enqueue(
      priced(say('a.txt holds one line.'), 10_000, 0, 500, 0.004),
      priced(say(planText('Greet', 'Tidy')), 12_000, 9_000, 700, 0.003),
      priced(call('write_file', { path: 'hello.txt', content: 'hi\n' }), 14_000, 12_000, 300, 0.002),
      priced(say('Wrote hello.txt.'), 14_500, 13_000, 100, 0.001),
      unpriced(say('Nothing to tidy.'), 13_000, 50),
      priced(say('Greeted; nothing to tidy.'), 15_000, 0, 200, 0.005),
    );
    const messageId = await request(workbench, 'Greet and tidy');

    const lines = await usageLines(root);
    expect(lines.map(({ phase, item }) => ({ phase, item }))).toEqual([
      { phase: 'research', item: undefined },
      { phase: 'plan', item: undefined },
      { phase: 'implement', item: { index: 0, label: 'Greet' } },
      { phase: 'implement', item: { index: 0, label: 'Greet' } },
      { phase: 'implement', item: { index: 1, label: 'Tidy' } },
      { phase: 'summary', item: undefined },
    ]);
    expect(lines[1]).toMatchObject({ promptTokens: 12_000, cachedTokens: 9_000, cacheWriteTokens: 0, completionTokens: 700, reasoningTokens: 0, costUsd: 0.003 });
    expect(lines[4]).toMatchObject({ costUsd: null });

    const steps = [
      step('research', { promptTokens: 10_000, completionTokens: 500, costUsd: 0.004 }),
      step('plan', { promptTokens: 12_000, cachedTokens: 9_000, completionTokens: 700, costUsd: 0.003 }),
      step('implement', { item: { index: 0, label: 'Greet' }, promptTokens: 28_500, cachedTokens: 25_000, completionTokens: 400, calls: 2, costUsd: expect.closeTo(0.003, 12) as number }),
      step('implement', { item: { index: 1, label: 'Tidy' }, promptTokens: 13_000, completionTokens: 50, unpricedCalls: 1 }),
      step('summary', { promptTokens: 15_000, completionTokens: 200, costUsd: 0.005 }),
    ];
    const told = events.filter((event) => event.type === 'run-usage');
    expect(told).toHaveLength(6);
    expect(told.map((event) => event.steps.length)).toEqual([1, 2, 3, 3, 4, 5]);
    expect(told.at(-1)).toMatchObject({ messageId, steps });

    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.usage?.current).toEqual({ messageId, steps });
    expect(snapshot.usage?.requests[messageId]).toEqual({
      promptTokens: 78_500,
      cachedTokens: 34_000,
      cacheWriteTokens: 0,
      completionTokens: 1_850,
      reasoningTokens: 0,
      calls: 6,
      costUsd: expect.closeTo(0.015, 12) as number,
      unpricedSteps: 1,
      estimated: false,
      models: fakeModelEverywhere,
    });
  });

  it('adds a resumed run to what the cancelled one used, and a reload reads the same sums back', async () => {
    const root = await tempFolder();
    const first = await open(root, fakeModelOptions(llm()));
    llm().enqueue(
      priced(say('Nothing here yet.'), 1_000, 0, 100, 0.001),
      priced(say(planText('First', 'Second')), 2_000, 1_000, 200, 0.002),
      priced(say('First done.'), 3_000, 2_000, 300, 0.003),
      priced(call('run_command', { command: 'sleep 30' }), 4_000, 3_000, 400, 0.004),
    );
    const commandStarted = nextEvent(first, (event) => event.type === 'tool-started' && event.tool === 'run_command');
    const cancelled = await startRun(first, 'Two steps');
    await commandStarted;
    await first.request('session:cancel');
    expect((await cancelled.finished).status).toBe('cancelled');
    expect(await usageLines(root)).toHaveLength(4);

    llm().enqueue(priced(say('Second done.'), 5_000, 4_000, 500, 0.005), priced(say('Both steps done.'), 6_000, 0, 600, 0.006));
    const events = recordEvents(first);
    const resumed = await followRun(first, first.request('session:resume'));
    expect((await resumed.finished).status).toBe('done');

    const lines = await usageLines(root);
    expect(lines.map((line) => line['runId'])).toEqual([...Array<string>(4).fill(cancelled.runId), resumed.runId, resumed.runId]);
    const second = step('implement', { item: { index: 1, label: 'Second' }, promptTokens: 9_000, cachedTokens: 7_000, completionTokens: 900, calls: 2, costUsd: expect.closeTo(0.009, 12) as number });
    const steps = [
      step('research', { promptTokens: 1_000, completionTokens: 100, costUsd: 0.001 }),
      step('plan', { promptTokens: 2_000, cachedTokens: 1_000, completionTokens: 200, costUsd: 0.002 }),
      step('implement', { item: { index: 0, label: 'First' }, promptTokens: 3_000, cachedTokens: 2_000, completionTokens: 300, costUsd: 0.003 }),
      second,
      step('summary', { promptTokens: 6_000, completionTokens: 600, costUsd: 0.006 }),
    ];
    // The resumed run starts from the cancelled one's figures, before its first call.
    const told = events.filter((event) => event.type === 'run-usage');
    expect(told[0]?.steps).toEqual(steps.slice(0, 4).map((kept, index) => (index === 3 ? { ...kept, promptTokens: 4_000, cachedTokens: 3_000, completionTokens: 400, calls: 1, costUsd: 0.004 } : kept)));
    expect(told.at(-1)?.steps).toEqual(steps);

    const total = { promptTokens: 21_000, cachedTokens: 10_000, cacheWriteTokens: 0, completionTokens: 2_100, reasoningTokens: 0, calls: 6, costUsd: expect.closeTo(0.021, 12) as number, unpricedSteps: 0, estimated: false, models: fakeModelEverywhere };
    const before = await first.request('workbench:snapshot');
    expect(before.usage).toEqual({ requests: { [cancelled.messageId]: total }, current: { messageId: cancelled.messageId, steps } });
    await first.close();

    const reopened = await open(root, fakeModelOptions(llm()));
    const after = await reopened.request('workbench:snapshot');
    expect(after.usage).toEqual(before.usage);
    expect(after.warnings).toEqual([]);
  });

  it('keeps a request’s usage in the plan history when a newer request clears rpi/, so its total stays', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const [research, plan, item, summary] = oneStep('Only');
    llm().enqueue(priced(research!, 1_000, 0, 10, 0.001), priced(plan!, 2_000, 500, 20, 0.002), unpriced(item!, 3_000, 30), priced(summary!, 4_000, 0, 40, 0.004));
    const first = await request(workbench, 'First request');
    const firstTotal = (await workbench.request('workbench:snapshot')).usage?.requests[first];
    const firstLines = await readFile(usageFile(root), 'utf8');

    llm().enqueue(...oneStep('Next').map((turn) => unpriced(turn, 100, 10)));
    const second = await request(workbench, 'Second request');

    expect(await readFile(keptFile(root, first, 'usage.jsonl'), 'utf8')).toBe(firstLines);
    const { usage } = await workbench.request('workbench:snapshot');
    expect(firstTotal).toMatchObject({ promptTokens: 10_000, cachedTokens: 500, completionTokens: 100, costUsd: expect.closeTo(0.007, 12) as number, unpricedSteps: 1 });
    expect(usage?.requests[first]).toEqual(firstTotal);
    expect(usage?.requests[second]).toMatchObject({ promptTokens: 400, completionTokens: 40, calls: 4, costUsd: null, unpricedSteps: 4 });
    expect(usage?.current?.messageId).toBe(second);
  });

  it('skips a corrupt line with a warning naming the file and line, and keeps every other call', async () => {
    const root = await tempFolder();
    const first = await open(root, fakeModelOptions(llm()));
    llm().enqueue(priced(say('Research.'), 1_000, 0, 100, 0.001), priced(say(planText('Only')), 2_000, 0, 200, 0.002), call('run_command', { command: 'sleep 30' }));
    const commandStarted = nextEvent(first, (event) => event.type === 'tool-started' && event.tool === 'run_command');
    const cancelled = await startRun(first, 'One step');
    await commandStarted;
    await first.request('session:cancel');
    await cancelled.finished;
    await first.close();
    const [research, plan, item] = (await readFile(usageFile(root), 'utf8')).trim().split('\n');
    await writeFile(usageFile(root), `${research}\n{"runId":"r","phase":"plan","promptTokens":"many"}\n${plan}\n${item}\n`);

    const reopened = await open(root, fakeModelOptions(llm()));
    const snapshot = await reopened.request('workbench:snapshot');
    // Named where it is: in the conversation's own folder.
    expect(snapshot.warnings).toEqual([expect.stringMatching(/^\.workbench\/conversations\/c-[\w-]+\/rpi\/usage\.jsonl: skipped corrupt line 2 \(/)]);
    expect(snapshot.usage?.current?.steps.map(({ phase, calls }) => ({ phase, calls }))).toEqual([
      { phase: 'research', calls: 1 },
      { phase: 'plan', calls: 1 },
      { phase: 'implement', calls: 1 },
    ]);

    // The run that goes on says so too, and appends after the lines it kept.
    const events = recordEvents(reopened);
    llm().enqueue(priced(say('Done.'), 3_000, 0, 300, 0.003), priced(say('Summary.'), 4_000, 0, 400, 0.004));
    expect((await (await followRun(reopened, reopened.request('session:resume'))).finished).status).toBe('done');
    expect(warningsIn(events)).toEqual([expect.stringMatching(/^\.workbench\/conversations\/c-[\w-]+\/rpi\/usage\.jsonl: skipped corrupt line 2 \(/)]);
    expect((await readFile(usageFile(root), 'utf8')).trim().split('\n')).toHaveLength(6);
  });

  it('cuts a torn last line left by a crash before the next call is appended, saying so', async () => {
    const root = await tempFolder();
    const first = await open(root, fakeModelOptions(llm()));
    llm().enqueue(priced(say('Research.'), 1_000, 0, 100, 0.001), priced(say(planText('Only')), 2_000, 0, 200, 0.002), call('run_command', { command: 'sleep 30' }));
    const commandStarted = nextEvent(first, (event) => event.type === 'tool-started' && event.tool === 'run_command');
    const cancelled = await startRun(first, 'One step');
    await commandStarted;
    await first.request('session:cancel');
    await cancelled.finished;
    await first.close();
    const torn = '{"runId":"run-x","ts":1,"phase":"impl';
    await appendFile(usageFile(root), torn);

    const reopened = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(reopened);
    llm().enqueue(priced(say('Done.'), 3_000, 0, 300, 0.003), priced(say('Summary.'), 4_000, 0, 400, 0.004));
    expect((await (await followRun(reopened, reopened.request('session:resume'))).finished).status).toBe('done');
    expect(warningsIn(events)).toEqual([
      expect.stringMatching(/^\.workbench\/conversations\/c-[\w-]+\/rpi\/usage\.jsonl: line \d+ is an incomplete write and will be cut off/),
      `${shownConversation(root)}/rpi/usage.jsonl: cut off an incomplete last line of ${Buffer.byteLength(torn)} bytes, left by a write that did not finish (the process stopped mid-write); every complete record is kept.`,
    ]);
    const lines = await usageLines(root);
    expect(lines.map((line) => line['phase'])).toEqual(['research', 'plan', 'implement', 'implement', 'summary']);
  });
});
