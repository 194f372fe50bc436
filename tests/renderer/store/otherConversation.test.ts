import { describe, expect, it } from 'vitest';
import type { ConversationSummary, Snapshot, UnsequencedEvent } from '../../../engine/contract/index.js';
import { applySnapshot, initialState } from '../../../renderer/src/store/state.js';
import { idleSnapshot, item, message, play } from '../../support/runViewFixture.js';

const shownId = 'c-00000001';
const otherId = 'c-00000002';
const line = (id: string, title: string, updated: number): ConversationSummary => ({ id, title, created: 1, updated, requests: 1, running: false });

/** Conversation 1 shown, after a finished run of its own; conversation 2 listed below it. */
const shown = applySnapshot(initialState, {
  ...idleSnapshot,
  conversationId: shownId,
  conversations: [line(shownId, 'Parse the statement', 20), line(otherId, 'Write the report', 10)],
  runEvents: [
    { type: 'run-started', seq: 1, runId: 'run-1', conversationId: shownId, messageId: 'u1', startedAt: 1 },
    { type: 'run-finished', seq: 2, runId: 'run-1', conversationId: shownId, status: 'done', finishedAt: 2 },
  ],
  lastSeq: 2,
});

const approval = (requestId: string, runId = 'run-2'): UnsequencedEvent => ({
  type: 'approval-requested',
  runId,
  requestId,
  tool: 'write_file',
  args: { path: 'report.csv', content: 'x' },
  path: '/work/demo/report.csv',
  reason: 'file changes need your approval',
  canAlwaysAllow: false,
  expiresAt: 600_000,
});
const question: UnsequencedEvent = { type: 'question-asked', runId: 'run-2', requestId: 'q1', phase: 'research', question: 'Which format?', expiresAt: 600_000 };
const otherStarts: UnsequencedEvent[] = [
  { type: 'message-added', runId: null, conversationId: otherId, message: { ...message('u9', 'user', 'Write the report'), ts: 30 } },
  { type: 'run-started', runId: 'run-2', conversationId: otherId, messageId: 'u9', startedAt: 30 },
  { type: 'phase-started', runId: 'run-2', conversationId: otherId, phase: 'research' },
];

describe('a run of another conversation than the one shown', () => {
  it('shows what it waits for apart from the shown conversation’s run, which stays as it was', () => {
    const during = play(shown, [...otherStarts, question, approval('a1')]);
    expect(during.run).toMatchObject({ runId: 'run-1', status: 'done', approvals: [], questions: [] });
    expect(during.messages.map((shownMessage) => shownMessage.id)).toEqual(['u1']);
    expect(during.runningConversationId).toBe(otherId);
    expect(during.otherRun?.approvals.map((card) => [card.requestId, card.status])).toEqual([['a1', 'pending']]);
    expect(during.otherRun?.questions.map((card) => card.question)).toEqual(['Which format?']);

    const answered = play(during, [{ type: 'approval-resolved', runId: 'run-2', requestId: 'a1', decision: 'approved' }]);
    expect(answered.otherRun?.approvals.map((card) => card.status)).toEqual(['approved']);
    expect(answered.run?.approvals).toEqual([]);

    const finished = play(answered, [{ type: 'run-finished', runId: 'run-2', conversationId: otherId, status: 'done', finishedAt: 40 }]);
    expect(finished).toMatchObject({ runningConversationId: null, otherRun: null });
    expect(finished.run?.runId).toBe('run-1');
  });

  it('keeps a plan waiting for review there, and the shown conversation’s plan untouched', () => {
    const review: UnsequencedEvent = { type: 'plan-ready', runId: 'run-2', items: [item(0, 'Report')], riskyItems: [], planText: '# Execution Plan\n' };
    const during = play(shown, [...otherStarts, review]);
    expect(during.otherRun?.planReview?.items.map((planned) => planned.label)).toEqual(['Report']);
    expect(during.rpi.hasPlan).toBe(false);
  });

  it('moves its conversation up the list as its messages come', () => {
    const during = play(shown, otherStarts);
    expect(during.conversations.map((listed) => [listed.id, listed.updated])).toEqual([
      [otherId, 30],
      [shownId, 20],
    ]);
  });

  it('is rebuilt from a snapshot of the shown conversation: the waiting approval apart, followed by the events after it', () => {
    const snapshot: Snapshot = {
      ...idleSnapshot,
      conversationId: shownId,
      runningConversationId: otherId,
      pendingApprovals: [{ requestId: 'a1', tool: 'write_file', args: {}, reason: 'file changes need your approval', canAlwaysAllow: false, expiresAt: 600_000 }],
      lastSeq: 7,
    };
    const loaded = applySnapshot(shown, snapshot);
    expect(loaded.run).toBeNull();
    expect(loaded.otherRun?.approvals.map((card) => card.requestId)).toEqual(['a1']);
    const next = play(loaded, [approval('a2')]);
    expect(next.otherRun?.approvals.map((card) => card.requestId)).toEqual(['a1', 'a2']);
    expect(next.run).toBeNull();
  });

  it('goes in the run view as before when the running conversation is the one shown', () => {
    const own = play(shown, [{ type: 'run-started', runId: 'run-3', conversationId: shownId, messageId: 'u1', startedAt: 50 }, approval('a3', 'run-3')]);
    expect(own.otherRun).toBeNull();
    expect(own.run?.approvals.map((card) => card.requestId)).toEqual(['a3']);
  });
});
