import type { ApprovalRequestView, QuestionOutcome, QuestionRequestView, EventOf, ModelStatus, Phase, PlanItem, PlanReviewView, RunStatus } from '../../../engine/contract/index.js';
import type { TablePreview } from '../../../engine/contract/tablePreview.js';

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

/** A question of the model (ask_user) waiting for the user, or how it was settled. */
export interface QuestionCardState extends QuestionRequestView {
  status: 'pending' | QuestionOutcome;
  /** The user's answer, once given. */
  answer?: string;
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
  /** The model each phase started on, as phase-started named it. */
  phaseModels: Partial<Record<Phase, string>>;
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
  questions: QuestionCardState[];
  /** The plan waiting at the review gate, or null. */
  planReview: PlanReviewView | null;
  error: string | null;
  /** The phase a failed or cancelled run stopped in. */
  stoppedIn: Phase | null;
  /** The engine's clock at run-started and run-finished; null when this view never saw them. */
  startedAt: number | null;
  finishedAt: number | null;
}
