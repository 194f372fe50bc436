import type { ApprovalRequestView, EventOf, ModelStatus, Phase, PlanItem, PlanReviewView, RunStatus, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { TablePreview } from '../../../engine/contract/tablePreview.js';
import { describeRun, runningItemOf } from './runStatus.js';

export const phaseOrder: readonly Phase[] = ['research', 'plan', 'implement', 'summary'];

export type StepState = 'pending' | 'active' | 'done' | 'failed';
export interface PhaseStep {
  state: StepState;
  error?: string;
}

/** One tool call, as the activity feed shows it. */
export interface ToolActivity {
  callId: string;
  tool: string;
  /** As the engine shows them: a replayed run's long strings are cut short. */
  args: Record<string, unknown>;
  phase: Phase | null;
  /** The plan item (index) being worked on when the call started; null outside Implement. */
  itemIndex: number | null;
  status: 'running' | 'ok' | 'failed';
  summary: string | null;
  durationMs: number | null;
  /** A table tool's result as a small table. */
  table: TablePreview | null;
}

export interface CallUsage {
  phase: Phase;
  promptTokens: number;
  completionTokens: number;
  contextWindow: number;
  estimated: boolean;
}

export interface RunTotals {
  promptTokens: number;
  completionTokens: number;
  calls: number;
  /** True when any call's counts were estimated with a tokenizer. */
  estimated: boolean;
}

/** A request fitted to the context budget, as the activity feed shows it after the call it followed. */
export interface ContextNote {
  phase: Phase;
  itemIndex: number | null;
  /** The tool call shown last when it came; null before any. */
  afterCallId: string | null;
  setAside: number;
  condensed: number;
  cut: number;
  afterRefusal: boolean;
}

/** The budget a request may fill, as the context meter draws it. */
export interface ContextBudgetView {
  budget: number;
  contextWindow: number;
}

export type ApprovalStatus = 'pending' | 'approved' | 'edited' | 'denied' | 'expired';

export interface ApprovalCardState extends ApprovalRequestView {
  status: ApprovalStatus;
  /** The arguments the action ran with, when the user edited them. */
  editedArgs?: Record<string, unknown>;
}

export interface RunProgress {
  current: number;
  total: number;
  label: string;
}

/** Everything the live run view draws, rebuilt from the run's events alone. */
export interface RunView {
  runId: string | null;
  messageId: string | null;
  status: 'running' | RunStatus;
  /** The phase started last. */
  phase: Phase | null;
  steps: Record<Phase, PhaseStep>;
  /** "Analyzing files…", "Working on step 3 of 12: Parse", … with what the model call is doing when it says. */
  statusLine: string;
  /** What the current model call told last (queued, thinking, retrying…); null once a tool or a phase starts. */
  modelStatus: ModelStatus | null;
  progress: RunProgress | null;
  items: PlanItem[];
  /** Index of the plan item being implemented right now, or null. */
  runningItem: number | null;
  activity: ToolActivity[];
  contextNotes: ContextNote[];
  lastCall: CallUsage | null;
  /** Known once a request had to be fitted to it. */
  contextBudget: ContextBudgetView | null;
  /** The project's instruction files (AGENTS.md and nested ones) the run's phases were given. */
  instructionFiles: string[];
  /** The items the user attached to the request (a path, a folder with "/", "note 1"), as the run gave them to its phases. */
  attachedItems: string[];
  /** The window the run fits its requests to and where it was learned, once the run says. */
  contextWindow: Omit<EventOf<'context-window'>, 'type' | 'seq' | 'runId'> | null;
  totals: RunTotals;
  approvals: ApprovalCardState[];
  /** The plan waiting at the review gate, or null. */
  planReview: PlanReviewView | null;
  error: string | null;
  /** The phase a failed or cancelled run stopped in. */
  stoppedIn: Phase | null;
  /** The engine's clock at run-started and run-finished; null when this view never saw them. */
  startedAt: number | null;
  finishedAt: number | null;
}

const pendingSteps = (): Record<Phase, PhaseStep> => ({
  research: { state: 'pending' },
  plan: { state: 'pending' },
  implement: { state: 'pending' },
  summary: { state: 'pending' },
});

function newRunView({ runId, messageId = null, startedAt }: { runId: string | null; messageId?: string | null; startedAt: number | null }): RunView {
  return withDerived({
    runId,
    messageId,
    status: 'running',
    phase: null,
    steps: pendingSteps(),
    statusLine: '',
    modelStatus: null,
    progress: null,
    items: [],
    runningItem: null,
    activity: [],
    contextNotes: [],
    lastCall: null,
    contextBudget: null,
    contextWindow: null,
    instructionFiles: [],
    attachedItems: [],
    totals: { promptTokens: 0, completionTokens: 0, calls: 0, estimated: false },
    approvals: [],
    planReview: null,
    error: null,
    stoppedIn: null,
    startedAt,
    finishedAt: null,
  });
}

/**
 * The run view after one event: a pure function of the previous view and the event. Events of another
 * run than the one shown start a fresh view, so a page that missed a run-started still follows.
 */
export function reduceRun(run: RunView | null, event: WorkbenchEvent): RunView | null {
  switch (event.type) {
    case 'run-started':
      return newRunView({ runId: event.runId, messageId: event.messageId, startedAt: event.startedAt });
    case 'conversation-reset':
      return null; // an undo or regenerate: the run it showed is forgotten
    case 'message-added':
      // An answer outside any run is a discarded run's note: that run is forgotten too.
      return event.runId === null && event.message.role === 'assistant' && run?.status !== 'running' ? null : run;
    case 'summary-delta':
    case 'warning':
    case 'changes-updated':
    case 'mcp-status':
      return run;
    default:
      return withDerived(reduceRunEvent(followed(run, event.runId), event));
  }
}

type RunEvent = Exclude<WorkbenchEvent, { type: 'run-started' | 'conversation-reset' | 'message-added' | 'summary-delta' | 'warning' | 'changes-updated' | 'mcp-status' }>;

function reduceRunEvent(run: RunView, event: RunEvent): RunView {
  switch (event.type) {
    case 'phase-started':
      return { ...run, phase: event.phase, steps: startStep(run.steps, event.phase), planReview: null, modelStatus: null };
    case 'model-status': {
      const { type: _type, seq: _seq, runId: _runId, phase: _phase, ...status } = event;
      return { ...run, modelStatus: status };
    }
    case 'phase-completed':
      return { ...run, steps: { ...run.steps, [event.phase]: event.ok ? { state: 'done' } : { state: 'failed', error: event.error ?? 'The phase failed.' } } };
    case 'implement-progress':
      return { ...run, progress: { current: event.current, total: event.total, label: event.label } };
    case 'plan-updated':
      return { ...run, items: event.items };
    case 'plan-ready':
      return { ...run, items: event.items, planReview: { items: event.items, riskyItems: event.riskyItems, planText: event.planText } };
    case 'tool-started':
      return { ...run, activity: [...run.activity, startedActivity(run, event)], modelStatus: null };
    case 'tool-finished':
      return { ...run, activity: finishActivity(run.activity, event) };
    case 'approval-requested':
      return { ...run, approvals: upsertApproval(run.approvals, approvalRequestOf(event)) };
    case 'approval-resolved':
      return { ...run, approvals: resolveApproval(run.approvals, event) };
    case 'usage':
      return { ...run, ...countUsage(run.totals, event) };
    case 'context-window':
      return { ...run, contextWindow: { tokens: event.tokens, source: event.source, detail: event.detail } };
    case 'instructions-read':
      return { ...run, instructionFiles: [...new Set([...run.instructionFiles, ...event.files])] };
    case 'context-items-read':
      return { ...run, attachedItems: event.items };
    case 'context-trimmed':
      return { ...run, contextNotes: [...run.contextNotes, contextNoteOf(run, event)], contextBudget: { budget: event.budget, contextWindow: event.contextWindow } };
    case 'run-finished':
      return finishRun(run, event);
  }
}

/** Pending approvals and the plan review as a snapshot states them, over what the events said. */
export function withPendingRequests(run: RunView | null, { approvals, planReview }: { approvals?: ApprovalRequestView[]; planReview?: PlanReviewView | null }): RunView | null {
  if (approvals === undefined && planReview === undefined) return run;
  if (run === null && !approvals?.length && !planReview) return null;
  let next = run ?? newRunView({ runId: null, startedAt: null });
  // The snapshot's requests carry the full arguments; replayed events carry shortened ones.
  for (const request of approvals ?? []) next = { ...next, approvals: upsertApproval(next.approvals, request) };
  if (planReview !== undefined) next = { ...next, planReview };
  return withDerived(next);
}

function followed(run: RunView | null, runId: string | null): RunView {
  if (run && (runId === null || run.runId === runId)) return run;
  return newRunView({ runId, startedAt: null });
}

/** Starts a phase; phases before it that never ran in this run were done by an earlier one (resume). */
function startStep(steps: Record<Phase, PhaseStep>, phase: Phase): Record<Phase, PhaseStep> {
  const started = phaseOrder.indexOf(phase);
  const next = { ...steps, [phase]: { state: 'active' } };
  for (const earlier of phaseOrder.slice(0, started)) {
    if (next[earlier].state === 'pending') next[earlier] = { state: 'done' };
  }
  return next;
}

function startedActivity(run: RunView, event: EventOf<'tool-started'>): ToolActivity {
  return {
    callId: event.callId,
    tool: event.tool,
    args: event.args,
    phase: run.phase,
    itemIndex: run.phase === 'implement' ? run.runningItem : null,
    status: 'running',
    summary: null,
    durationMs: null,
    table: null,
  };
}

function finishActivity(activity: ToolActivity[], event: EventOf<'tool-finished'>): ToolActivity[] {
  return activity.map((entry) =>
    entry.callId === event.callId ? { ...entry, status: event.ok ? 'ok' : 'failed', summary: event.summary, durationMs: event.durationMs, table: event.table ?? null } : entry,
  );
}

function contextNoteOf(run: RunView, { phase, setAside, condensed, cut, afterRefusal = false }: EventOf<'context-trimmed'>): ContextNote {
  const itemIndex = phase === 'implement' ? run.runningItem : null;
  return { phase, itemIndex, afterCallId: run.activity.at(-1)?.callId ?? null, setAside, condensed, cut, afterRefusal };
}

function approvalRequestOf({ requestId, tool, args, path, reason, canAlwaysAllow, canAllowForRequest, expiresAt }: EventOf<'approval-requested'>): ApprovalRequestView {
  return { requestId, tool, args, ...(path === undefined ? {} : { path }), reason, canAlwaysAllow, ...(canAllowForRequest ? { canAllowForRequest } : {}), expiresAt };
}

function upsertApproval(approvals: ApprovalCardState[], request: ApprovalRequestView): ApprovalCardState[] {
  const card: ApprovalCardState = { ...request, status: 'pending' };
  if (!approvals.some((existing) => existing.requestId === request.requestId)) return [...approvals, card];
  return approvals.map((existing) => (existing.requestId === request.requestId ? card : existing));
}

function resolveApproval(approvals: ApprovalCardState[], event: EventOf<'approval-resolved'>): ApprovalCardState[] {
  return approvals.map((card) => {
    if (card.requestId !== event.requestId) return card;
    return { ...card, status: event.decision, ...(event.decision === 'edited' && event.args ? { editedArgs: event.args } : {}) };
  });
}

function countUsage(totals: RunTotals, event: EventOf<'usage'>): Pick<RunView, 'lastCall' | 'totals'> {
  const estimated = event.estimated ?? false;
  return {
    lastCall: { phase: event.phase, promptTokens: event.promptTokens, completionTokens: event.completionTokens, contextWindow: event.contextWindow, estimated },
    totals: {
      promptTokens: totals.promptTokens + event.promptTokens,
      completionTokens: totals.completionTokens + event.completionTokens,
      calls: totals.calls + 1,
      estimated: totals.estimated || estimated,
    },
  };
}

function finishRun(run: RunView, event: EventOf<'run-finished'>): RunView {
  const error = event.error ?? null;
  const steps = { ...run.steps };
  for (const phase of phaseOrder) {
    if (steps[phase].state !== 'active') continue;
    steps[phase] = event.status === 'done' ? { state: 'done' } : { state: 'failed', error: error ?? 'The run stopped here.' };
  }
  // A run can stop between phases (a rejected plan): the phase it names shows why.
  if (event.phase && event.status !== 'done' && steps[event.phase].state !== 'failed') {
    steps[event.phase] = { state: 'failed', error: error ?? 'The run stopped here.' };
  }
  return { ...run, status: event.status, error, stoppedIn: event.phase ?? null, steps, planReview: null, modelStatus: null, finishedAt: event.finishedAt };
}

function withDerived(run: RunView): RunView {
  return { ...run, runningItem: runningItemOf(run), statusLine: describeRun(run) };
}
