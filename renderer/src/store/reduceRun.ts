import type { ApprovalRequestView, EventOf, Phase, PlanReviewView, QuestionRequestView, WorkbenchEvent } from '../../../engine/contract/index.js';
import { itemsWithCheck } from './checkResults.js';
import { describeRun, runningItemOf } from './runStatus.js';
import { phaseOrder, type ApprovalCardState, type ContextNote, type QuestionCardState, type PhaseStep, type RunTotals, type RunView, type ToolActivity } from './runView.js';

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
    phaseModels: {},
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
    questions: [],
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
    case 'run-usage':
    case 'conversation-updated':
    case 'conversation-deleted':
      return run;
    default:
      return withDerived(reduceRunEvent(followed(run, event.runId), event));
  }
}

type RunEvent = Exclude<
  WorkbenchEvent,
  { type: 'run-started' | 'conversation-reset' | 'message-added' | 'summary-delta' | 'warning' | 'changes-updated' | 'mcp-status' | 'run-usage' | 'conversation-updated' | 'conversation-deleted' }
>;

function reduceRunEvent(run: RunView, event: RunEvent): RunView {
  switch (event.type) {
    case 'phase-started':
      return {
        ...run,
        phase: event.phase,
        steps: startStep(run.steps, event.phase),
        phaseModels: event.model ? { ...run.phaseModels, [event.phase]: event.model } : run.phaseModels,
        planReview: null,
        modelStatus: null,
      };
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
    case 'check-finished':
      return { ...run, items: itemsWithCheck(run.items, event) };
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
    case 'question-asked':
      return { ...run, questions: upsertQuestion(run.questions, questionRequestOf(event)) };
    case 'question-answered':
      return { ...run, questions: settleQuestion(run.questions, event) };
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

/** What waits for the user — approvals, questions, the plan review — as a snapshot states it, over what the events said. */
export function withPendingRequests(
  run: RunView | null,
  { approvals, questions, planReview }: { approvals?: ApprovalRequestView[]; questions?: QuestionRequestView[]; planReview?: PlanReviewView | null },
): RunView | null {
  if (approvals === undefined && questions === undefined && planReview === undefined) return run;
  if (run === null && !approvals?.length && !questions?.length && !planReview) return null;
  let next = run ?? newRunView({ runId: null, startedAt: null });
  // The snapshot's requests carry the full arguments; replayed events carry shortened ones.
  for (const request of approvals ?? []) next = { ...next, approvals: upsertApproval(next.approvals, request) };
  for (const question of questions ?? []) next = { ...next, questions: upsertQuestion(next.questions, question) };
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
    itemIndex: event.item ?? null,
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

function contextNoteOf(run: RunView, { phase, item, setAside, condensed, cut, afterRefusal = false }: EventOf<'context-trimmed'>): ContextNote {
  return { phase, itemIndex: item ?? null, afterCallId: run.activity.at(-1)?.callId ?? null, setAside, condensed, cut, afterRefusal };
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

function questionRequestOf({ type: _type, seq: _seq, runId: _runId, ...question }: EventOf<'question-asked'>): QuestionRequestView {
  return question;
}

function upsertQuestion(questions: QuestionCardState[], question: QuestionRequestView): QuestionCardState[] {
  const card: QuestionCardState = { ...question, status: 'pending' };
  if (!questions.some((existing) => existing.requestId === question.requestId)) return [...questions, card];
  return questions.map((existing) => (existing.requestId === question.requestId ? card : existing));
}

function settleQuestion(questions: QuestionCardState[], event: EventOf<'question-answered'>): QuestionCardState[] {
  return questions.map((card) => (card.requestId === event.requestId ? { ...card, status: event.outcome, ...(event.answer === undefined ? {} : { answer: event.answer }) } : card));
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
