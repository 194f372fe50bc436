import type { ContextItem, Phase, PlanDecision, PlanItem, UnsequencedEvent } from '../contract/index.js';
import type { ToolModeState } from '../agent/toolMode.js';
import type { LlmClient } from '../llm/llmTypes.js';
import type { ToolLog } from '../store/toolLog.js';
import type { ToolContext } from '../tools/tool.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import type { ToolSource } from '../tools/toolSource.js';
import type { PhaseModel } from './runModels.js';
import type { QuestionDesk } from './userAnswers.js';

/** Wall-clock limits per phase loop; the error caps are shared. */
export interface RpiLimits {
  timeoutMs: Record<Phase, number>;
  maxConsecutiveErrors: number;
  maxTotalErrors: number;
}

export const defaultRpiLimits: RpiLimits = {
  timeoutMs: { research: 15 * 60_000, plan: 5 * 60_000, implement: 20 * 60_000, summary: 3 * 60_000 },
  maxConsecutiveErrors: 3,
  maxTotalErrors: 5,
};

/** A phase's model: its client, and the window its requests are fitted to. */
export type { PhaseModel } from './runModels.js';

/** One run of the orchestrator: what it answers, and everything it may use. */
export interface RpiRun {
  runId: string;
  /** The folder holding the conversation's rpi/. */
  stateDir: string;
  /** The folder's shared tool log, which says what the run's tools deleted. */
  toolLogFile: string;
  request: string;
  /** The files, folders and notes attached to the request, given to Research, Plan and every Implement item. */
  contextItems?: readonly ContextItem[];
  /** When the request started its run; files changed since are the run's changes. */
  startedAt: number;
  /** The default model, for every phase `phaseModels` does not name. */
  llm: LlmClient;
  toolMode: ToolModeState;
  contextWindow: number;
  /** Phases on a model of their own; phases that share a client share what is learned of its window. */
  phaseModels?: Partial<Record<Phase, PhaseModel>>;
  toolContext: Omit<ToolContext, 'signal'>;
  toolLog: Pick<ToolLog, 'append'>;
  limits: RpiLimits;
  emit: (event: UnsequencedEvent) => void;
  /** Persists the summary as the assistant's message (and announces it) before the summary phase completes. */
  saveSummary: (text: string) => Promise<void>;
  /** The plan review gate, when it is on: a plan not approved in this process is reviewed before Implement. */
  planReview?: {
    isApproved: (items: readonly PlanItem[]) => boolean;
    review: (items: readonly PlanItem[], planText: string) => Promise<PlanDecision | { decision: 'cancelled' }>;
    approved: (items: readonly PlanItem[]) => void;
    /** The engine appended items the model proposed while implementing. */
    extended: (before: readonly PlanItem[], after: readonly PlanItem[]) => void;
  };
  /** Approval and checkpoint before each change; every call runs when absent. */
  guard?: ToolGuard;
  /** Who answers ask_user (Research and Plan); without it every question gets "No answer". */
  questions?: QuestionDesk;
  /** Tools of the user's MCP servers, offered by phase before each turn. */
  extraTools?: ToolSource;
  /** The folder's check command, run after every item without a check of its own and once more after the last item. */
  folderCheck?: string | null;
  /** Items being retried after a failure (by index), with why they failed: the first new attempt is told. */
  retryReasons?: Readonly<Record<string, string>>;
  signal: AbortSignal;
}

export type RpiOutcome =
  | { status: 'done'; summary: string }
  | { status: 'failed'; phase: Phase; error: string }
  | { status: 'cancelled'; phase: Phase; reason?: string };

export type Stopped = Exclude<RpiOutcome, { status: 'done' }>;

/** Ends the run from inside a phase with its outcome, already tagged with the phase. */
export class PhaseStopped extends Error {
  constructor(readonly outcome: Stopped) {
    super(outcome.status === 'failed' ? outcome.error : 'cancelled');
  }
}
