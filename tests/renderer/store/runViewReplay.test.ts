import { describe, expect, it } from 'vitest';
import type { Snapshot, UnsequencedEvent } from '../../../engine/contract/index.js';
import { applyEvent } from '../../../renderer/src/store/applyEvent.js';
import { applySnapshot, initialState } from '../../../renderer/src/store/state.js';
import { idleSnapshot, message, midRun, play, ready, restOfRun, runId, sequenced } from '../../support/runViewFixture.js';

/** The snapshot a reloaded page gets after `events`, recording them as the engine does. */
function snapshotAfter(events: UnsequencedEvent[], extra: Partial<Snapshot> = {}): Snapshot {
  const runEvents = sequenced(events);
  const last = runEvents.at(-1);
  return { ...idleSnapshot, running: last?.type !== 'run-finished', lastSeq: last?.seq ?? 0, runEvents, ...extra };
}

describe('applySnapshot rebuilds the run view from runEvents', () => {
  it('gives the run view live events gave, mid-run', () => {
    const live = play(ready, midRun);
    const reloaded = applySnapshot(initialState, snapshotAfter(midRun));
    expect(reloaded.run).toEqual(live.run);
    expect(reloaded).toMatchObject({ phase: 'implement', running: true, lastSeq: live.lastSeq });
  });

  it('gives the run view live events gave, after the run', () => {
    const events = [...midRun, ...restOfRun];
    const live = play(ready, events);
    const reloaded = applySnapshot(initialState, snapshotAfter(events));
    expect(reloaded.run).toEqual(live.run);
    expect(reloaded.run).toMatchObject({ startedAt: 1_000, finishedAt: 2_000 });
    expect(reloaded.phase).toBeNull();
  });

  it("times a run still going from the engine's run-started, not from the reload", () => {
    const reloaded = applySnapshot(initialState, snapshotAfter(midRun));
    expect(reloaded.run).toMatchObject({ startedAt: 1_000, finishedAt: null });
  });

  it('rebuilds the run it was watching on a resync', () => {
    const live = play(ready, midRun.slice(0, 3));
    const resynced = applySnapshot({ ...live, needsResync: true }, snapshotAfter(midRun));
    expect(resynced.run).toMatchObject({ startedAt: 1_000, phase: 'implement' });
    expect(resynced.needsResync).toBe(false);
  });

  it('then goes on live from the snapshot seq', () => {
    const reloaded = applySnapshot(initialState, snapshotAfter(midRun));
    const next = applyEvent(reloaded, { type: 'approval-resolved', runId, requestId: 'a1', decision: 'approved', seq: reloaded.lastSeq + 1 });
    expect(next.run?.approvals[0]?.status).toBe('approved');
  });

  it('takes the waiting approvals from the snapshot, with their full arguments', () => {
    const shortened = midRun.map((event) => (event.type === 'approval-requested' ? { ...event, args: { path: 'out.csv', content: 'date,am… (12 chars)' } } : event));
    const [request] = midRun.filter((event) => event.type === 'approval-requested');
    const { type: _type, runId: _runId, ...view } = request as Extract<UnsequencedEvent, { type: 'approval-requested' }>;
    const reloaded = applySnapshot(initialState, snapshotAfter(shortened, { pendingApprovals: [view] }));
    expect(reloaded.run?.approvals).toEqual([{ ...view, status: 'pending' }]);
  });

  it('shows waiting approvals and a waiting plan even without recorded events', () => {
    const [request] = midRun.filter((event) => event.type === 'approval-requested');
    const { type: _type, runId: _runId, ...view } = request as Extract<UnsequencedEvent, { type: 'approval-requested' }>;
    const planReview = { items: [], riskyItems: [], planText: '# Execution Plan\n' };
    const reloaded = applySnapshot(initialState, { ...idleSnapshot, running: true, pendingApprovals: [view], planReview });
    expect(reloaded.run).toMatchObject({ approvals: [{ requestId: 'a1', status: 'pending' }], planReview, status: 'running' });
  });

  it('takes the plan review from the snapshot: null means none waits', () => {
    const waiting = snapshotAfter(midRun.slice(0, 11));
    expect(applySnapshot(initialState, waiting).run?.planReview).not.toBeNull();
    expect(applySnapshot(initialState, { ...waiting, planReview: null }).run?.planReview).toBeNull();
  });

  it('has no run view before any run, after an undo, or without a folder', () => {
    expect(applySnapshot(initialState, idleSnapshot).run).toBeNull();
    expect(applySnapshot(initialState, { ...idleSnapshot, runEvents: [], pendingApprovals: [], planReview: null }).run).toBeNull();
    expect(applySnapshot(play(ready, midRun), null).run).toBeNull();
  });

  it('rebuilds the streamed summary of a run in its summary phase', () => {
    const streaming = [...midRun, ...restOfRun.slice(0, 11)];
    expect(applySnapshot(initialState, snapshotAfter(streaming)).streamingSummary).toBe('Parsed the statement.');
    expect(applySnapshot(initialState, snapshotAfter([...midRun, ...restOfRun])).streamingSummary).toBe('');
  });

  it('takes resumable from the snapshot', () => {
    expect(applySnapshot(initialState, { ...idleSnapshot, resumable: true }).resumable).toBe(true);
    expect(applySnapshot(initialState, idleSnapshot).resumable).toBe(false);
  });
});

describe('resumable, followed live', () => {
  const stopped = [...midRun.slice(0, 2), { type: 'run-finished', finishedAt: 2_000, runId, status: 'cancelled', phase: 'research' } as const];

  it('is set when a run stops with the request unanswered, and cleared by the next run', () => {
    const state = play(ready, stopped);
    expect(state.resumable).toBe(true);
    expect(play(state, [{ type: 'run-started', runId: 'run-2', messageId: 'u1', startedAt: 1_000 }]).resumable).toBe(false);
  });

  it('is cleared when the request is answered (a discard note)', () => {
    expect(play(ready, [...stopped, { type: 'message-added', runId: null, message: message('a2', 'assistant', 'Run discarded.') }]).resumable).toBe(false);
  });

  it('stays off after a run that finished', () => {
    expect(play(ready, [...midRun, ...restOfRun]).resumable).toBe(false);
  });
});
