import type { Message, PlanItem, Snapshot, UnsequencedEvent, WorkbenchEvent } from '../../engine/contract/index.js';
import { applyEvent } from '../../renderer/src/store/applyEvent.js';
import { applySnapshot, initialState, type WorkbenchState } from '../../renderer/src/store/state.js';

export const runId = 'run-1';

export const item = (index: number, label: string, status: PlanItem['status'] = 'pending', failure?: string): PlanItem => ({
  index,
  number: index + 1,
  label,
  description: `do ${label.toLowerCase()}`,
  status,
  ...(failure ? { failure } : {}),
  rawLine: `- [${status === 'done' ? 'x' : status === 'failed' ? '!' : ' '}] ${index + 1}. ${label} — do ${label.toLowerCase()}`,
});

export const message = (id: string, role: Message['role'], text: string): Message => ({ id, role, text, ts: 1 });

/** A folder as the engine describes it before any run. */
export const idleSnapshot: Snapshot = {
  folder: '/work/demo',
  name: 'demo',
  fileCount: 3,
  conversation: [message('u1', 'user', 'Parse the statement')],
  rpi: { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false },
  running: false,
  lastSeq: 0,
  warnings: [],
};

export const ready = applySnapshot(initialState, idleSnapshot);

/** Numbers events from `from` on, as the engine's bus would. */
export function sequenced(events: readonly UnsequencedEvent[], from = 1): WorkbenchEvent[] {
  return events.map((event, index) => ({ ...event, seq: from + index }) as WorkbenchEvent);
}

/** Applies events numbered from the state's next seq on. */
export function play(state: WorkbenchState, events: readonly UnsequencedEvent[]): WorkbenchState {
  return sequenced(events, state.lastSeq + 1).reduce((current, event) => applyEvent(current, event), state);
}

const write = { path: 'out.csv', content: 'date,amount\n' };

/** A run in the middle of Implement: research and plan done, step 1 of 2 working, an approval waiting. */
export const midRun: UnsequencedEvent[] = [
  { type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 },
  { type: 'phase-started', runId, phase: 'research' },
  { type: 'tool-started', runId, callId: 'c1', tool: 'list_files', args: { path: '.' } },
  { type: 'tool-finished', runId, callId: 'c1', ok: true, summary: '3 entries', durationMs: 12 },
  { type: 'usage', runId, phase: 'research', promptTokens: 1200, completionTokens: 80, contextWindow: 32_000 },
  { type: 'phase-completed', runId, phase: 'research', ok: true },
  { type: 'phase-started', runId, phase: 'plan' },
  { type: 'usage', runId, phase: 'plan', promptTokens: 2000, completionTokens: 300, contextWindow: 32_000, estimated: true },
  { type: 'plan-updated', runId, items: [item(0, 'Parse'), item(1, 'Write')] },
  { type: 'phase-completed', runId, phase: 'plan', ok: true },
  { type: 'plan-ready', runId, items: [item(0, 'Parse'), item(1, 'Write')], riskyItems: [{ index: 1, reason: 'it deletes files' }], planText: '# Execution Plan\n' },
  { type: 'phase-started', runId, phase: 'implement' },
  { type: 'implement-progress', runId, current: 1, total: 2, label: 'Parse' },
  { type: 'tool-started', runId, callId: 'c2', tool: 'write_file', args: write, item: 0 },
  {
    type: 'approval-requested',
    runId,
    requestId: 'a1',
    tool: 'write_file',
    args: write,
    path: '/work/demo/out.csv',
    reason: 'file changes need your approval',
    canAlwaysAllow: false,
    expiresAt: 600_000,
  },
];

/** The rest of that run: approved with edits, both items settled, the summary streamed and saved. */
export const restOfRun: UnsequencedEvent[] = [
  { type: 'approval-resolved', runId, requestId: 'a1', decision: 'edited', args: { path: 'out.csv', content: 'date\n' } },
  { type: 'tool-finished', runId, callId: 'c2', ok: true, summary: 'Wrote out.csv', durationMs: 40 },
  { type: 'plan-updated', runId, items: [item(0, 'Parse', 'done'), item(1, 'Write')] },
  { type: 'implement-progress', runId, current: 2, total: 2, label: 'Write' },
  { type: 'tool-started', runId, callId: 'c3', tool: 'run_command', args: { command: 'rm -rf build' }, item: 1 },
  { type: 'tool-finished', runId, callId: 'c3', ok: false, summary: 'exit code 1', durationMs: 900 },
  { type: 'plan-updated', runId, items: [item(0, 'Parse', 'done'), item(1, 'Write', 'failed', 'rm failed')] },
  { type: 'phase-completed', runId, phase: 'implement', ok: true },
  { type: 'phase-started', runId, phase: 'summary' },
  { type: 'summary-delta', runId, text: 'Parsed ' },
  { type: 'summary-delta', runId, text: 'the statement.' },
  { type: 'message-added', runId, message: message('a9', 'assistant', 'Parsed the statement.') },
  { type: 'phase-completed', runId, phase: 'summary', ok: true },
  { type: 'run-finished', finishedAt: 2_000, runId, status: 'done' },
];
