import { contextItemsBudget, readContextItems } from '../context/contextItems.js';
import { pathsNamedIn, readProjectInstructions } from '../context/projectInstructions.js';
import type { ContextItem, Phase, PlanItem, UnsequencedEvent } from '../contract/index.js';
import { runAgentLoop, type AgentLoopResult } from '../agent/runAgentLoop.js';
import type { LoopLimits } from '../agent/loopLimits.js';
import type { ToolModeState } from '../agent/toolMode.js';
import type { LlmClient } from '../llm/llmTypes.js';
import type { ToolLog } from '../store/toolLog.js';
import { getFileMap } from '../tools/getFileMap.js';
import type { ToolContext } from '../tools/tool.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import type { ToolSource } from '../tools/toolSource.js';
import type { PlanDecision } from '../approvals/planGate.js';
import { changedFilesSince, describeChanges } from './changedFiles.js';
import { implementPhase, planPhase, researchPhase, summaryPhase, type PhaseSpec } from './phases.js';
import { extractNewPlanItems, withoutOriginalCount } from './planFile.js';
import { failureLinePattern } from './prompts.js';
import { appendItems, markItem, readPlan, readResearch, readRpiState, writePlan, writeResearch } from './rpiState.js';

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

/** One run of the orchestrator: what it answers, and everything it may use. */
export interface RpiRun {
  runId: string;
  stateDir: string;
  request: string;
  /** The files, folders and notes attached to the request, given to Research, Plan and every Implement item. */
  contextItems?: readonly ContextItem[];
  /** When the request started its run; files changed since are the run's changes. */
  startedAt: number;
  llm: LlmClient;
  toolMode: ToolModeState;
  contextWindow: number;
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
  /** Tools of the user's MCP servers, offered by phase before each turn. */
  extraTools?: ToolSource;
  /** Items being retried after a failure (by index), with why they failed: the first new attempt is told. */
  retryReasons?: Readonly<Record<string, string>>;
  signal: AbortSignal;
}

export type RpiOutcome =
  | { status: 'done'; summary: string }
  | { status: 'failed'; phase: Phase; error: string }
  | { status: 'cancelled'; phase: Phase; reason?: string };

type Stopped = Exclude<RpiOutcome, { status: 'done' }>;

/** Ends the run from inside a phase with its outcome, already tagged with the phase. */
class PhaseStopped extends Error {
  constructor(readonly outcome: Stopped) {
    super(outcome.status === 'failed' ? outcome.error : 'cancelled');
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs what the state on disk calls for: Research without research.md, Plan without plan.md, Implement
 * while an item is pending, then the Summary. A run that stopped (cancel, crash, failure) therefore goes
 * on where it stopped, and a done item is never run again.
 */
export async function runRpi(run: RpiRun): Promise<RpiOutcome> {
  const orchestrator = new Orchestrator(run);
  try {
    const state = await readRpiState(run.stateDir);
    if (!state.hasResearch) await orchestrator.phase('research', () => orchestrator.research());
    if (!state.hasPlan) await orchestrator.phase('plan', () => orchestrator.plan());
    if (run.planReview) await orchestrator.review(run.planReview);
    if (!(await readRpiState(run.stateDir)).allDone) await orchestrator.phase('implement', () => orchestrator.implement());
    const summary = await orchestrator.phase('summary', () => orchestrator.summary());
    return { status: 'done', summary };
  } catch (error) {
    if (error instanceof PhaseStopped) return error.outcome;
    throw error;
  }
}

class Orchestrator {
  private readonly emit: RpiRun['emit'];
  private calls = 0;
  /** The window every loop fits its requests to; smaller once the server refused a request as too long, for the rest of the run. */
  private contextWindow: number;
  private toldPromptCut = false;
  /** The instruction files last told, one per line, so the same set is not told again. */
  private toldInstructions = '';
  /** Whether the attached items were told (once a run: they do not change). */
  private toldAttachments = false;

  constructor(private readonly run: RpiRun) {
    this.emit = run.emit;
    this.contextWindow = run.contextWindow;
  }

  /** Announces a phase, runs it, and turns its failure into an outcome tagged with the phase. */
  async phase<T>(phase: Phase, body: () => Promise<T>): Promise<T> {
    const { runId } = this.run;
    this.emit({ type: 'phase-started', runId, phase });
    try {
      const value = await body();
      this.emit({ type: 'phase-completed', runId, phase, ok: true });
      return value;
    } catch (error) {
      const outcome: Stopped = error instanceof PhaseStopped ? error.outcome : this.run.signal.aborted ? { status: 'cancelled', phase } : { status: 'failed', phase, error: messageOf(error) };
      const message = outcome.status === 'failed' ? outcome.error : 'Cancelled by the user.';
      this.emit({ type: 'phase-completed', runId, phase, ok: false, error: message });
      throw error instanceof PhaseStopped ? error : new PhaseStopped(outcome);
    }
  }

  async research(): Promise<void> {
    const result = await this.loop(researchPhase, {
      request: this.run.request,
      manifest: await this.manifest(3),
      instructions: await this.instructions('research'),
      attachments: await this.attachments('research'),
    });
    const text = this.textOrStop('research', result);
    if (!text.trim()) this.stop('research', 'The model ended research without writing any findings.');
    await writeResearch(this.run.stateDir, text);
  }

  async plan(): Promise<void> {
    const research = (await readResearch(this.run.stateDir)) ?? '';
    const result = await this.loop(planPhase, {
      request: this.run.request,
      research,
      manifest: await this.manifest(2),
      instructions: await this.instructions('plan'),
      attachments: await this.attachments('plan'),
    });
    const text = this.textOrStop('plan', result);
    if (!text.trim()) this.stop('plan', 'The model ended planning without writing a plan.');
    await writePlan(this.run.stateDir, text);
    this.emit({ type: 'plan-updated', runId: this.run.runId, items: (await readRpiState(this.run.stateDir)).items });
  }

  /** The review gate between Plan and Implement: approve, approve an edited plan, or reject (the run stops, resumable). */
  async review(gate: NonNullable<RpiRun['planReview']>): Promise<void> {
    const { stateDir, runId } = this.run;
    const { items } = await readRpiState(stateDir);
    if (!items.some((item) => item.status === 'pending') || gate.isApproved(items)) return;
    const answer = await gate.review(items, (await readPlan(stateDir)) ?? '');
    if (answer.decision === 'cancelled') throw new PhaseStopped({ status: 'cancelled', phase: 'plan' });
    if (answer.decision === 'reject') {
      throw new PhaseStopped({ status: 'cancelled', phase: 'plan', reason: 'The plan was rejected. Resume to review it again, or send a new message.' });
    }
    let approved = items;
    if (answer.decision === 'edit') {
      await writePlan(stateDir, withoutOriginalCount(answer.plan));
      approved = (await readRpiState(stateDir)).items;
      this.emit({ type: 'plan-updated', runId, items: approved });
    }
    gate.approved(approved);
  }

  /** Each pending item in file order, in a fresh context; plan.md is re-read before every item. */
  async implement(): Promise<void> {
    for (;;) {
      const { items } = await readRpiState(this.run.stateDir);
      const item = items.find((candidate) => candidate.status === 'pending');
      if (!item) return;
      this.emit({ type: 'implement-progress', runId: this.run.runId, current: item.index + 1, total: items.length, label: item.label });
      const first = await this.attempt(item, items, this.run.retryReasons?.[String(item.index)]);
      const outcome = first.ok ? first : await this.attempt(item, items, first.reason);
      const updated = outcome.ok
        ? await this.completeItem(item, outcome.text)
        : await markItem(this.run.stateDir, item.index, 'failed', outcome.reason);
      this.emit({ type: 'plan-updated', runId: this.run.runId, items: updated });
    }
  }

  async summary(): Promise<string> {
    const { stateDir, request, startedAt } = this.run;
    const planText = (await readPlan(stateDir)) ?? '';
    const { workspace } = this.run.toolContext;
    const changes = await changedFilesSince(workspace.root, stateDir, startedAt, { signal: this.run.signal, onUnreachable: workspace.unreachable.report });
    const result = await this.loop(summaryPhase, { request, planText, changes: describeChanges(changes) }, (text) =>
      this.emit({ type: 'summary-delta', runId: this.run.runId, text }),
    );
    const text = this.textOrStop('summary', result).trim();
    if (!text) this.stop('summary', 'The model sent an empty summary.');
    await this.run.saveSummary(text);
    return text;
  }

  private async attempt(item: PlanItem, items: readonly PlanItem[], retryReason?: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    const planText = (await readPlan(this.run.stateDir)) ?? '';
    const instructions = await this.instructions('implement', pathsNamedIn(`${item.label} ${item.description}`));
    const attachments = await this.attachments('implement');
    const input = { request: this.run.request, item, step: item.index + 1, items, planText, manifest: await this.manifest(3), instructions, attachments };
    const result = await this.loop(implementPhase, retryReason === undefined ? input : { ...input, retryReason });
    if (!result.ok) {
      // Cancel, and a model server that fails, stop the run with the item still pending (resumable);
      // an item fails only for its own work: limits reached, or the model saying it could not do it.
      if (result.failure === 'cancelled' || (result.failure === 'model' && result.llmError?.kind !== 'bad-request')) {
        this.textOrStop('implement', result);
      }
      return { ok: false, reason: result.error };
    }
    const declared = [...result.text.matchAll(new RegExp(failureLinePattern, 'gim'))].at(-1)?.[1];
    return declared ? { ok: false, reason: declared } : { ok: true, text: result.text };
  }

  private async completeItem(item: PlanItem, finalText: string): Promise<PlanItem[]> {
    const items = await markItem(this.run.stateDir, item.index, 'done');
    const proposed = extractNewPlanItems(finalText);
    if (proposed.length === 0) return items;
    const { warning } = await appendItems(this.run.stateDir, proposed);
    if (warning) this.emit({ type: 'warning', runId: this.run.runId, message: warning });
    const after = (await readRpiState(this.run.stateDir)).items;
    this.run.planReview?.extended(items, after);
    return after;
  }

  private loop<Input>(spec: PhaseSpec<Input>, input: Input, onTextDelta?: (text: string) => void): Promise<AgentLoopResult> {
    const { run } = this;
    const limits: LoopLimits = {
      timeoutMs: run.limits.timeoutMs[spec.phase],
      maxConsecutiveErrors: run.limits.maxConsecutiveErrors,
      maxTotalErrors: run.limits.maxTotalErrors,
    };
    return runAgentLoop({
      phase: spec.phase,
      runId: run.runId,
      llm: run.llm,
      toolMode: run.toolMode,
      messages: spec.messages(input),
      tools: spec.tools,
      ...(run.extraTools ? { extraTools: run.extraTools } : {}),
      maxTurns: spec.maxTurns,
      limits,
      finalAnswerAtCap: spec.finalAnswerAtCap,
      ...(onTextDelta ? { onTextDelta } : {}),
      toolContext: run.toolContext,
      toolLog: run.toolLog,
      ...(run.guard ? { guard: run.guard } : {}),
      emit: run.emit,
      nextCallId: () => `${run.runId}-${(this.calls += 1)}`,
      contextWindow: this.contextWindow,
      onWindowRefused: (tokens) => {
        this.contextWindow = Math.min(this.contextWindow, tokens);
      },
      onPromptCut: (cut) => this.tellPromptCut(cut),
      signal: run.signal,
    });
  }

  /** Once a run: the server cut a prompt to a window smaller than assumed, so it works from part of what it was given. */
  private tellPromptCut({ sentTokens, countedTokens }: { sentTokens: number; countedTokens: number }): void {
    if (this.toldPromptCut) return;
    this.toldPromptCut = true;
    const count = (tokens: number) => tokens.toLocaleString('en-US');
    this.emit({
      type: 'warning',
      runId: this.run.runId,
      message:
        `The model server counted only ${count(countedTokens)} of the about ${count(sentTokens)} prompt tokens sent: it cut the start of the prompt to fit ` +
        `a smaller context window than the ${count(this.contextWindow)} tokens assumed, so the model works without part of its instructions. ` +
        `Set the context window in Settings to ${count(countedTokens)}, or raise the server's context length (Ollama: OLLAMA_CONTEXT_LENGTH, or PARAMETER num_ctx in a Modelfile).`,
    });
  }

  /**
   * The project's instructions for this phase (and for the files an item names), read afresh each time so
   * an edit between runs counts; which files were used is told whenever that changes.
   */
  private async instructions(phase: Phase, paths: readonly string[] = []): Promise<string> {
    const { text, files } = await readProjectInstructions(this.run.toolContext.workspace, paths);
    const told = files.join('\n');
    if (files.length > 0 && told !== this.toldInstructions) {
      this.toldInstructions = told;
      this.emit({ type: 'instructions-read', runId: this.run.runId, phase, files });
    }
    return text;
  }

  /**
   * The items attached to the request, read afresh for each context (a file an earlier item changed is
   * given as it is now) within their share of the current window; which ones is told once a run.
   */
  private async attachments(phase: Phase): Promise<string> {
    const items = this.run.contextItems ?? [];
    if (items.length === 0) return '';
    const { text, labels } = await readContextItems({
      items,
      budgetChars: contextItemsBudget(this.contextWindow),
      toolContext: this.run.toolContext,
      signal: this.run.signal,
    });
    if (!this.toldAttachments) {
      this.toldAttachments = true;
      this.emit({ type: 'context-items-read', runId: this.run.runId, phase, items: labels });
    }
    return text;
  }

  /** The project's file map as the get_file_map tool shows it; the manifest each phase starts from. */
  private async manifest(depth: number): Promise<string> {
    return (await getFileMap.run({ path: '.', depth }, { ...this.run.toolContext, signal: this.run.signal })).text;
  }

  private textOrStop(phase: Phase, result: AgentLoopResult): string {
    if (result.ok) return result.text;
    if (result.failure === 'cancelled') throw new PhaseStopped({ status: 'cancelled', phase });
    return this.stop(phase, result.error);
  }

  private stop(phase: Phase, error: string): never {
    throw new PhaseStopped({ status: 'failed', phase, error });
  }
}
