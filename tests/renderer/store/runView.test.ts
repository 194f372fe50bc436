import { describe, expect, it } from 'vitest';
import type { UnsequencedEvent } from '../../../engine/contract/index.js';
import { checklistStatus } from '../../../renderer/src/store/runStatus.js';
import type { RunView } from '../../../renderer/src/store/runView.js';
import type { WorkbenchState } from '../../../renderer/src/store/state.js';
import { item, message, midRun, play, ready, restOfRun, runId } from '../../support/runViewFixture.js';

const runOf = (state: WorkbenchState): RunView => {
  if (!state.run) throw new Error('no run view');
  return state.run;
};

/** The run view after the first `count` events of the mid-run script. */
const after = (count: number) => runOf(play(ready, midRun.slice(0, count)));
const stepStates = (run: RunView) => Object.fromEntries(Object.entries(run.steps).map(([phase, step]) => [phase, step.state]));

describe('run view: phases and the status line', () => {
  it('starts empty on run-started, timed from when the page saw it', () => {
    const run = after(1);
    expect(run).toMatchObject({ runId, messageId: 'u1', status: 'running', phase: null, statusLine: 'Starting…', startedAt: 1_000, items: [], activity: [] });
    expect(stepStates(run)).toEqual({ research: 'pending', plan: 'pending', implement: 'pending', summary: 'pending' });
  });

  it('marks the started phase active and says what it does', () => {
    expect(after(2)).toMatchObject({ phase: 'research', statusLine: 'Analyzing files…' });
    expect(stepStates(after(2)).research).toBe('active');
    expect(after(7)).toMatchObject({ phase: 'plan', statusLine: 'Planning approach…' });
    expect(stepStates(after(7))).toEqual({ research: 'done', plan: 'active', implement: 'pending', summary: 'pending' });
  });

  it('names the step being worked on in Implement', () => {
    expect(after(12).statusLine).toBe('Working through the plan…');
    expect(after(13)).toMatchObject({ statusLine: 'Working on step 1 of 2: Parse', progress: { current: 1, total: 2, label: 'Parse' }, runningItem: 0 });
  });

  it('adds what the model call is doing: waiting, queued, thinking, retrying; not while it answers, and not once a tool runs', () => {
    const research = play(ready, midRun.slice(0, 2));
    const status = (event: Omit<Extract<UnsequencedEvent, { type: 'model-status' }>, 'type' | 'runId' | 'phase'>) =>
      runOf(play(research, [{ type: 'model-status', runId, phase: 'research', ...event }])).statusLine;
    expect(status({ state: 'waiting' })).toBe('Analyzing files… — waiting for the model server');
    expect(status({ state: 'queued' })).toBe('Analyzing files… — the server is queueing the request');
    expect(status({ state: 'thinking' })).toBe('Analyzing files… — thinking…');
    expect(status({ state: 'answering' })).toBe('Analyzing files…');
    expect(status({ state: 'retrying', attempt: 2, attempts: 5, delayMs: 4_000, reason: 'HTTP 500' })).toBe('Analyzing files… — retrying in 4 s (attempt 2 of 5): HTTP 500');
    const thenTool = play(research, [
      { type: 'model-status', runId, phase: 'research', state: 'thinking' },
      { type: 'tool-started', runId, callId: 'c9', tool: 'read_file', args: { path: 'a.txt' } },
    ]);
    expect(runOf(thenTool).statusLine).toBe('Analyzing files…');
  });

  it('says "Summarizing results…" in the summary and "Finished" once done', () => {
    const state = play(ready, [...midRun, ...restOfRun]);
    const summarizing = runOf(play(ready, [...midRun, ...restOfRun.slice(0, 9)]));
    expect(summarizing.statusLine).toBe('Summarizing results…');
    expect(runOf(state)).toMatchObject({ status: 'done', statusLine: 'Finished', error: null, finishedAt: 2_000, runningItem: null });
    expect(stepStates(runOf(state))).toEqual({ research: 'done', plan: 'done', implement: 'done', summary: 'done' });
  });

  it('shows a failed phase with its error, and the run failed in it', () => {
    const state = play(ready, [
      ...midRun.slice(0, 2),
      { type: 'phase-completed', runId, phase: 'research', ok: false, error: 'The model is unreachable.' },
      { type: 'run-finished', finishedAt: 2_000, runId, status: 'failed', phase: 'research', error: 'The model is unreachable.' },
    ]);
    expect(runOf(state).steps.research).toEqual({ state: 'failed', error: 'The model is unreachable.' });
    expect(runOf(state)).toMatchObject({ status: 'failed', stoppedIn: 'research', error: 'The model is unreachable.', statusLine: 'Failed during Research' });
    expect(state.error).toBeNull();
  });

  it('marks the phase a run was stopped between phases in (a rejected plan), and drops the review', () => {
    const rejected = 'The plan was rejected. Resume to review it again, or send a new message.';
    const run = runOf(play(ready, [...midRun.slice(0, 11), { type: 'run-finished', finishedAt: 2_000, runId, status: 'cancelled', phase: 'plan', error: rejected }]));
    expect(run.steps.plan).toEqual({ state: 'failed', error: rejected });
    expect(run).toMatchObject({ status: 'cancelled', statusLine: 'Stopped during Plan', planReview: null });
  });

  it('a resumed run that starts at Implement shows the earlier phases as done', () => {
    const run = runOf(play(ready, [{ type: 'run-started', runId: 'run-2', messageId: 'u1', startedAt: 1_000 }, { type: 'phase-started', runId: 'run-2', phase: 'implement' }]));
    expect(stepStates(run)).toEqual({ research: 'done', plan: 'done', implement: 'active', summary: 'pending' });
  });
});

describe('run view: plan, review and progress', () => {
  it('takes the items from plan-updated', () => {
    expect(after(9).items.map((entry) => entry.label)).toEqual(['Parse', 'Write']);
  });

  it('holds the plan review from plan-ready until the next phase starts', () => {
    expect(after(11)).toMatchObject({ planReview: { riskyItems: [{ index: 1, reason: 'it deletes files' }], planText: '# Execution Plan\n' }, statusLine: 'Waiting for you to review the plan' });
    expect(after(12).planReview).toBeNull();
  });

  it('derives "running" for the item being worked on, and stops once it is marked', () => {
    const working = after(13);
    expect(working.items.map((entry) => checklistStatus(working, entry))).toEqual(['running', 'pending']);
    const failed = runOf(play(ready, [...midRun, ...restOfRun.slice(0, 7)]));
    expect(failed.items.map((entry) => checklistStatus(failed, entry))).toEqual(['done', 'failed']);
    expect(failed.items[1]?.failure).toBe('rm failed');
    expect(failed.runningItem).toBeNull();
  });
});

describe('run view: activity and tokens', () => {
  it('records each tool call under its phase and plan item, running until it finishes', () => {
    expect(after(3).activity).toEqual([
      { callId: 'c1', tool: 'list_files', args: { path: '.' }, phase: 'research', itemIndex: null, status: 'running', summary: null, durationMs: null, table: null },
    ]);
    expect(after(4).activity[0]).toMatchObject({ status: 'ok', summary: '3 entries', durationMs: 12 });
    const done = runOf(play(ready, [...midRun, ...restOfRun]));
    expect(done.activity.map(({ callId, phase, itemIndex, status }) => ({ callId, phase, itemIndex, status }))).toEqual([
      { callId: 'c1', phase: 'research', itemIndex: null, status: 'ok' },
      { callId: 'c2', phase: 'implement', itemIndex: 0, status: 'ok' },
      { callId: 'c3', phase: 'implement', itemIndex: 1, status: 'failed' },
    ]);
  });

  it('ignores the end of a call it never saw start', () => {
    const run = after(2);
    expect(runOf(play(play(ready, midRun.slice(0, 2)), [{ type: 'tool-finished', runId, callId: 'gone', ok: true, summary: '', durationMs: 1 }])).activity).toEqual(run.activity);
  });

  it('keeps the last call for the context meter and the run totals, estimated when any call was', () => {
    expect(after(5)).toMatchObject({ lastCall: { phase: 'research', promptTokens: 1200, contextWindow: 32_000, estimated: false }, totals: { promptTokens: 1200, completionTokens: 80, calls: 1, estimated: false } });
    expect(after(8)).toMatchObject({ lastCall: { phase: 'plan', promptTokens: 2000, estimated: true }, totals: { promptTokens: 3200, completionTokens: 380, calls: 2, estimated: true } });
  });
});

describe('run view: approvals', () => {
  it('adds a pending card per request, keyed by its id', () => {
    expect(after(15).approvals).toEqual([
      {
        requestId: 'a1',
        tool: 'write_file',
        args: { path: 'out.csv', content: 'date,amount\n' },
        path: '/work/demo/out.csv',
        reason: 'file changes need your approval',
        canAlwaysAllow: false,
        expiresAt: 600_000,
        status: 'pending',
      },
    ]);
  });

  it('records the answer, with the arguments an edit ran with', () => {
    const run = runOf(play(ready, [...midRun, restOfRun[0]!]));
    expect(run.approvals[0]).toMatchObject({ status: 'edited', editedArgs: { path: 'out.csv', content: 'date\n' } });
  });

  it.each(['approved', 'denied', 'expired'] as const)('marks a card %s', (decision) => {
    const run = runOf(play(ready, [...midRun, { type: 'approval-resolved', runId, requestId: 'a1', decision }]));
    expect(run.approvals[0]?.status).toBe(decision);
    expect(run.approvals[0]?.editedArgs).toBeUndefined();
  });
});

describe('run view: forgetting and following runs', () => {
  const stopped = play(ready, [...midRun.slice(0, 2), { type: 'run-finished', finishedAt: 2_000, runId, status: 'cancelled', phase: 'research', error: 'Cancelled by the user.' }]);

  it('is forgotten on conversation-reset (undo, regenerate)', () => {
    expect(play(stopped, [{ type: 'conversation-reset', runId: null, messages: [] }]).run).toBeNull();
  });

  it('is forgotten when a stopped run is discarded (its note arrives outside any run)', () => {
    expect(play(stopped, [{ type: 'message-added', runId: null, message: message('a2', 'assistant', 'Run discarded during research.') }]).run).toBeNull();
    expect(play(stopped, [{ type: 'message-added', runId: null, message: message('u2', 'user', 'Next') }]).run).not.toBeNull();
  });

  it('is left alone by warnings, summary text and the summary message', () => {
    const running = play(ready, midRun.slice(0, 2));
    const events: UnsequencedEvent[] = [
      { type: 'warning', runId, message: 'Switching to the text tool protocol.' },
      { type: 'summary-delta', runId, text: 'x' },
      { type: 'message-added', runId, message: message('a3', 'assistant', 'x') },
    ];
    const next = play(running, events);
    expect(next.run).toBe(running.run);
    expect(next.warnings).toEqual(['Switching to the text tool protocol.']);
  });

  it('follows a run whose run-started this page never saw', () => {
    const run = runOf(play(ready, [{ type: 'phase-started', runId: 'run-9', phase: 'plan' }]));
    expect(run).toMatchObject({ runId: 'run-9', messageId: null, status: 'running', phase: 'plan', startedAt: null });
  });

  it('starts over on the next run-started', () => {
    const done = play(ready, [...midRun, ...restOfRun]);
    const next = runOf(play(done, [{ type: 'run-started', runId: 'run-2', messageId: 'u2', startedAt: 1_000 }]));
    expect(next).toMatchObject({ runId: 'run-2', items: [], activity: [], approvals: [], totals: { calls: 0 } });
  });

  it('keeps the items it was given, whatever their statuses', () => {
    const run = runOf(play(ready, [...midRun.slice(0, 1), { type: 'plan-updated', runId, items: [item(0, 'A', 'done')] }]));
    expect(run.items).toEqual([item(0, 'A', 'done')]);
  });
});
