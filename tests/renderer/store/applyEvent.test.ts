import { describe, expect, it } from 'vitest';
import type { Snapshot, UnsequencedEvent, WorkbenchEventType } from '../../../engine/contract/index.js';
import { applyEvent } from '../../../renderer/src/store/applyEvent.js';
import { applySnapshot, initialState, type WorkbenchState } from '../../../renderer/src/store/state.js';
import { message, midRun, play, restOfRun } from '../../support/runViewFixture.js';

const snapshot: Snapshot = {
  folder: '/work/demo',
  name: 'demo',
  fileCount: 3,
  conversation: [],
  rpi: { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false },
  running: false,
  lastSeq: 4,
  warnings: [],
};

const ready = applySnapshot(initialState, snapshot);

describe('applySnapshot', () => {
  it('takes folder, conversation, plan and seq from the snapshot', () => {
    expect(ready.folder).toEqual({ path: '/work/demo', name: 'demo', fileCount: 3 });
    expect(ready.lastSeq).toBe(4);
  });

  it('clears the folder when the host has none open', () => {
    expect(applySnapshot(ready, null).folder).toBeNull();
  });
});

describe('applyEvent', () => {
  it('follows a run: started, phase, streamed summary, message, finished', () => {
    const runId = 'r1';
    const during = play(ready, [
      { type: 'run-started', runId, messageId: 'm1', startedAt: 1_000 },
      { type: 'phase-started', runId, phase: 'summary' },
      { type: 'summary-delta', runId, text: 'Added ' },
      { type: 'summary-delta', runId, text: 'a parser.' },
    ]);
    expect(during).toMatchObject({ running: true, phase: 'summary', streamingSummary: 'Added a parser.' });
    const after = play(during, [{ type: 'message-added', runId, message: message('a1', 'assistant', 'Added a parser.') }, { type: 'run-finished', finishedAt: 2_000, runId, status: 'done' }]);
    expect(after).toMatchObject({ running: false, phase: null, streamingSummary: '' });
    expect(after.messages.map((m) => m.id)).toEqual(['a1']);
  });

  it('leaves the error a failed run ends with to the run view and the chat, not the request-error banner', () => {
    const after = play(ready, [{ type: 'run-finished', finishedAt: 2_000, runId: 'r', status: 'failed', error: 'research: the model is unreachable' }]);
    expect(after.error).toBeNull();
    expect(after.run).toMatchObject({ status: 'failed', error: 'research: the model is unreachable' });
  });

  it('leaves the reason a run was cancelled to the run view', () => {
    const after = play(ready, [{ type: 'run-finished', finishedAt: 2_000, runId: 'r', status: 'cancelled', phase: 'plan', error: 'The plan was rejected.' }]);
    expect(after.error).toBeNull();
    expect(after.run).toMatchObject({ status: 'cancelled', error: 'The plan was rejected.' });
  });

  it('replaces the plan items on plan-updated', () => {
    const items = [{ index: 0, number: 1, label: 'Parse', description: '', status: 'done' as const, rawLine: '- [x] 1. Parse' }];
    expect(play(ready, [{ type: 'plan-updated', runId: 'r', items }]).rpi).toMatchObject({ hasPlan: true, items, allDone: true });
  });

  it('adds a message once even if it is delivered twice', () => {
    const added = { type: 'message-added', runId: null, message: message('u1', 'user', 'hi') } as const;
    expect(play(ready, [added, added]).messages).toHaveLength(1);
  });

  it('ignores an event it has already applied', () => {
    const once = play(ready, [{ type: 'warning', runId: null, message: 'w' }]);
    expect(applyEvent(once, { type: 'warning', runId: null, message: 'w', seq: once.lastSeq })).toBe(once);
  });

  it('marks the state for resync when events were missed, without applying the late one', () => {
    const gap = applyEvent(ready, { type: 'message-added', runId: null, message: message('u9', 'user', 'x'), seq: ready.lastSeq + 2 });
    expect(gap.needsResync).toBe(true);
    expect(gap.messages).toEqual([]);
    expect(applySnapshot(gap, { ...snapshot, lastSeq: 6 }).needsResync).toBe(false);
  });

  it('resets the conversation when the engine says so', () => {
    const withTwo = play(ready, [{ type: 'conversation-reset', runId: null, messages: [message('a', 'user', '1'), message('b', 'assistant', '2')] }]);
    expect(withTwo.messages.map((m) => m.text)).toEqual(['1', '2']);
  });

  it('applies every event type in seq order', () => {
    const everyType: Record<WorkbenchEventType, true> = {
      'run-started': true, 'phase-started': true, 'phase-completed': true, 'implement-progress': true, 'plan-updated': true, 'plan-ready': true,
      'tool-started': true, 'tool-finished': true, 'approval-requested': true, 'approval-resolved': true, 'summary-delta': true,
      'message-added': true, 'conversation-reset': true, 'usage': true, 'warning': true, 'run-finished': true, 'context-trimmed': true,
      'model-status': true, 'context-window': true, 'instructions-read': true, 'context-items-read': true, 'changes-updated': true, 'mcp-status': true,
      'run-usage': true, 'check-finished': true, 'question-asked': true, 'question-answered': true,
    };
    const trimmed: UnsequencedEvent = { type: 'context-trimmed', runId: 'run-1', phase: 'research', setAside: 3, condensed: 0, cut: 0, promptTokens: 3_000, budget: 6_144, contextWindow: 8_192 };
    const queued: UnsequencedEvent = { type: 'model-status', runId: 'run-1', phase: 'research', state: 'queued' };
    const window: UnsequencedEvent = { type: 'context-window', runId: 'run-1', tokens: 8_192, source: 'table', detail: 'the table of known models (qwen2.5-coder)' };
    const counted: UnsequencedEvent = { type: 'changes-updated', runId: 'run-1', messageId: 'm1', files: 2, added: 10, removed: 3 };
    const instructions: UnsequencedEvent = { type: 'instructions-read', runId: 'run-1', phase: 'research', files: ['AGENTS.md'] };
    const attached: UnsequencedEvent = { type: 'context-items-read', runId: 'run-1', phase: 'research', items: ['src/app.ts', 'docs/', 'note 1'] };
    const mcp: UnsequencedEvent = { type: 'mcp-status', runId: null, status: { name: 'everything', state: 'starting', tools: [], updatedAt: 1_000 } };
    const spent: UnsequencedEvent = { type: 'run-usage', runId: 'run-1', messageId: 'm1', steps: [] };
    const checked: UnsequencedEvent = { type: 'check-finished', runId: 'run-1', index: 0, label: 'a', round: 0, command: 'npm test', source: 'plan', outcome: 'passed', exitCode: 0 };
    const asked: UnsequencedEvent = { type: 'question-asked', runId: 'run-1', requestId: 'q1', phase: 'research', question: 'Which format?', expiresAt: 2_000 };
    const answered: UnsequencedEvent = { type: 'question-answered', runId: 'run-1', requestId: 'q1', outcome: 'answered', answer: 'CSV' };
    const events: UnsequencedEvent[] = [...midRun, trimmed, queued, window, instructions, attached, counted, mcp, spent, checked, asked, answered, ...restOfRun, { type: 'warning', runId: null, message: 'w' }, { type: 'conversation-reset', runId: null, messages: [] }];
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(Object.keys(everyType)));
    const states = events.reduce<WorkbenchState[]>((all, event) => [...all, play(all.at(-1)!, [event])], [ready]);
    expect(states.map((state) => state.lastSeq)).toEqual(states.map((_, index) => ready.lastSeq + index));
    expect(states.some((state) => state.needsResync)).toBe(false);
  });

  it('leaves the run view as it was when events were missed', () => {
    const during = play(ready, midRun.slice(0, 3));
    const gap = applyEvent(during, { type: 'tool-finished', runId: 'run-1', callId: 'c1', ok: true, summary: '', durationMs: 1, seq: during.lastSeq + 2 });
    expect(gap.needsResync).toBe(true);
    expect(gap.run).toBe(during.run);
    expect(applyEvent(during, { type: 'run-started', runId: 'x', messageId: 'm', startedAt: 1_000, seq: during.lastSeq })).toBe(during);
  });
});

