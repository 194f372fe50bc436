import { pathsNamedIn } from '../context/projectInstructions.js';
import { checkFailureReason } from '../contract/checkText.js';
import type { ContextItem, Phase, PlanDecision, PlanItem, RpiState, UnsequencedEvent } from '../contract/index.js';
import { runAgentLoop, type AgentLoopResult } from '../agent/runAgentLoop.js';
import type { LoopLimits } from '../agent/loopLimits.js';
import type { ToolModeState } from '../agent/toolMode.js';
import type { LlmClient } from '../llm/llmTypes.js';
import type { ToolLog } from '../store/toolLog.js';
import { askUser } from '../tools/askUser.js';
import type { ToolContext, UserQuestion } from '../tools/tool.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import { isOffered, type ToolOffer } from '../tools/phaseTools.js';
import type { ToolSource } from '../tools/toolSource.js';
import { changedFilesSince, describeChanges } from './changedFiles.js';
import { ChangeRecords } from './changeRecords.js';
import { ContextSources } from './contextSources.js';
import { implementPhase, planPhase, researchPhase, summaryPhase, type FixRound, type ImplementStart, type PhaseSpec } from './phases.js';
import { describeChecks } from './checkSummary.js';
import { ItemChecks, maxFixRounds } from './itemChecks.js';
import { extractNewPlanItems, parsePlan, withoutOriginalCount, withoutOutcomes } from './planFile.js';
import { failureLinePattern } from './prompts.js';
import { RunModels, type PhaseModel } from './runModels.js';
import { appendItems, markItem, readPlan, readResearch, readRpiState, writePlan, writeResearch } from './rpiState.js';
import { answersText, researchWithAnswers, UserAnswers, type QuestionDesk } from './userAnswers.js';

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
  stateDir: string;
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

/** The Implement phase as it began: what every item is given the same way, and what later ones are told apart from it. */
interface PhaseStart extends ImplementStart {
  /** Items plan.md had; the ones after them were added while implementing. */
  itemCount: number;
  /** Where the run's change records stood (ChangeRecords.mark). */
  changesMark: number;
  /** The window the attached items were read for. */
  contextWindow: number;
}

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
    const reviewed = await readRpiState(run.stateDir);
    if (!reviewed.allDone || orchestrator.finalCheckDue(reviewed)) await orchestrator.phase('implement', () => orchestrator.implement());
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
  private readonly models: RunModels;
  /** Which of a phase's tools are offered; set when Research and Implement begin (Plan offers no table tool). */
  private offer: ToolOffer = { tables: true, workbooks: true };
  private readonly sources: ContextSources;
  /** The changes the run's tool calls made, for what an item is told changed since its phase began. */
  private readonly changes = new ChangeRecords();
  private readonly toolLog: Pick<ToolLog, 'append'>;
  private readonly checks: ItemChecks;
  /** The request's questions to the user (ask_user) and their answers. */
  private readonly answers: UserAnswers;

  constructor(private readonly run: RpiRun) {
    this.emit = run.emit;
    this.models = new RunModels({ runId: run.runId, llm: run.llm, contextWindow: run.contextWindow, ...(run.phaseModels ? { phaseModels: run.phaseModels } : {}), emit: run.emit });
    this.sources = new ContextSources({ runId: run.runId, contextItems: run.contextItems ?? [], toolContext: run.toolContext, emit: run.emit, signal: run.signal });
    this.toolLog = this.changes.recording(run.toolLog);
    const { runId, stateDir, toolContext, guard, emit, signal } = run;
    this.checks = new ItemChecks({ runId, stateDir, folderCheck: run.folderCheck ?? null, toolContext, toolLog: this.toolLog, ...(guard ? { guard } : {}), emit, signal });
    this.answers = new UserAnswers({ ...(run.questions ? { desk: run.questions } : {}), maskSecrets: run.toolContext.maskSecrets });
  }

  /** Every item is through, but the folder's check has not yet run over the whole change they made. */
  finalCheckDue(state: RpiState): boolean {
    return this.checks.finalCheck() !== null && state.finalCheck === undefined && state.items.some((item) => item.status === 'done');
  }

  /** Announces a phase, runs it, and turns its failure into an outcome tagged with the phase. */
  async phase<T>(phase: Phase, body: () => Promise<T>): Promise<T> {
    const { runId } = this.run;
    this.emit({ type: 'phase-started', runId, phase, model: this.models.modelOf(phase).llm.model });
    this.models.announceWindow(phase);
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

  /** Research, told the answers an earlier, stopped run of the request already had; its findings get every answer appended. */
  async research(): Promise<void> {
    this.offer = await this.sources.toolOffer([this.run.request]);
    const answers = answersText(await this.answers.all());
    const result = await this.loop(researchPhase, { ...(await this.briefing('research')), manifest: await this.sources.manifest(3), answers });
    const text = this.textOrStop('research', result);
    if (!text.trim()) this.stop('research', 'The model ended research without writing any findings.');
    await writeResearch(this.run.stateDir, researchWithAnswers(text, await this.answers.all()));
  }

  async plan(): Promise<void> {
    const research = (await readResearch(this.run.stateDir)) ?? '';
    const result = await this.loop(planPhase, { ...(await this.briefing('plan')), research, manifest: await this.sources.manifest(2) }, {
      // Plan's answers join research.md as they come, so Implement and a resumed Plan read them there.
      onAnswer: async () => writeResearch(this.run.stateDir, researchWithAnswers((await readResearch(this.run.stateDir)) ?? '', await this.answers.all())),
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

  /**
   * Each pending item in file order, in a fresh context; plan.md is re-read before every item. What the
   * items share (the briefing, the plan as approved, the file map) is read once, when the phase begins.
   */
  async implement(): Promise<void> {
    let start = await this.implementStart();
    for (let ran = false; ; ran = true) {
      const state = await readRpiState(this.run.stateDir);
      const { items } = state;
      const item = items.find((candidate) => candidate.status === 'pending');
      if (!item) {
        if (ran || this.finalCheckDue(state)) await this.checkWholeChange(state);
        return;
      }
      const window = this.models.windowOf('implement');
      if (start.contextWindow !== window) {
        // A server refused a request as too long, leaving a smaller window: the attached items are read again within it.
        start = { ...start, attachments: await this.sources.attachments('implement', window), contextWindow: window };
      }
      this.emit({ type: 'implement-progress', runId: this.run.runId, current: item.index + 1, total: items.length, label: item.label });
      const deadline = Date.now() + this.run.limits.timeoutMs.implement;
      const first = await this.attempt(start, item, items, { retryReason: this.run.retryReasons?.[String(item.index)] });
      const outcome = first.ok ? first : await this.attempt(start, item, items, { retryReason: first.reason });
      const updated = outcome.ok
        ? await this.checkedItem({ start, item, items, deadline }, outcome.text)
        : await markItem(this.run.stateDir, item.index, 'failed', outcome.reason);
      this.emit({ type: 'plan-updated', runId: this.run.runId, items: updated });
    }
  }

  /**
   * An item that says it is done, once its check (its own, else the folder's) has run: a failed check goes
   * back to the item, with its output, for up to maxFixRounds fix rounds (instead of the ordinary retry),
   * each within the item's time limit; still failing, the item is marked failed naming the check. A denied
   * check leaves the item done, its check shown as denied.
   */
  private async checkedItem(work: { start: PhaseStart; item: PlanItem; items: readonly PlanItem[]; deadline: number }, doneText: string): Promise<PlanItem[]> {
    const { start, item, items, deadline } = work;
    const check = this.checks.checkOf(item);
    let text = doneText;
    for (let round = 0; check !== null; round += 1) {
      const ran = await this.checks.run(item, check, round, deadline - Date.now());
      if (this.run.signal.aborted) throw new PhaseStopped({ status: 'cancelled', phase: 'implement' });
      if (ran.outcome !== 'failed') break;
      const reason = checkFailureReason(ran.command, ran.exitCode);
      if (round === maxFixRounds || deadline <= Date.now()) return markItem(this.run.stateDir, item.index, 'failed', reason);
      const fixRound = { round: round + 1, of: maxFixRounds, reason, output: ran.contextText };
      const fix = await this.attempt(start, item, items, { fixRound, timeoutMs: deadline - Date.now() });
      if (!fix.ok) return markItem(this.run.stateDir, item.index, 'failed', fix.reason);
      text = fix.text;
    }
    return this.completeItem(item, text);
  }

  /** The folder's check, once more over the whole change after the last item; a failure is told, and the summary reports it. */
  private async checkWholeChange(state: RpiState): Promise<void> {
    const command = this.checks.finalCheck();
    if (command === null || !state.items.some((item) => item.status === 'done')) return;
    await this.checks.run(null, { command, source: 'folder' }, 0, this.run.limits.timeoutMs.implement);
    if (this.run.signal.aborted) throw new PhaseStopped({ status: 'cancelled', phase: 'implement' });
  }

  async summary(): Promise<string> {
    const { stateDir, request, startedAt } = this.run;
    const planText = (await readPlan(stateDir)) ?? '';
    const { workspace } = this.run.toolContext;
    const changes = await changedFilesSince(workspace.root, stateDir, startedAt, { signal: this.run.signal, onUnreachable: workspace.unreachable.report });
    const { items, finalCheck } = await readRpiState(stateDir);
    const result = await this.loop(
      summaryPhase,
      { request, planText, changes: describeChanges(changes), checks: describeChecks(items, finalCheck) },
      { onTextDelta: (text) => this.emit({ type: 'summary-delta', runId: this.run.runId, text }) },
    );
    const text = this.textOrStop('summary', result).trim();
    if (!text) this.stop('summary', 'The model sent an empty summary.');
    await this.run.saveSummary(text);
    return text;
  }

  /** What every item of this Implement phase is given the same way, and where the run's change records stood. */
  private async implementStart(): Promise<PhaseStart> {
    const planText = (await readPlan(this.run.stateDir)) ?? '';
    this.offer = await this.sources.toolOffer([this.run.request, planText]);
    return {
      ...(await this.briefing('implement')),
      approvedPlan: withoutOutcomes(planText),
      manifest: await this.sources.manifest(3),
      answers: answersText(await this.answers.all()),
      itemCount: parsePlan(planText).items.length,
      changesMark: this.changes.mark(),
      contextWindow: this.models.windowOf('implement'),
    };
  }

  private async attempt(
    start: PhaseStart,
    item: PlanItem,
    items: readonly PlanItem[],
    { retryReason, fixRound, timeoutMs }: { retryReason?: string | undefined; fixRound?: FixRound; timeoutMs?: number } = {},
  ): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    const input = {
      start,
      item,
      step: item.index + 1,
      items,
      added: items.slice(start.itemCount),
      folderInstructions: await this.sources.folderInstructions('implement', pathsNamedIn(`${item.label} ${item.description}`)),
      changedFiles: this.changes.since(start.changesMark),
    };
    const result = await this.loop(implementPhase, { ...input, ...(retryReason === undefined ? {} : { retryReason }), ...(fixRound ? { fixRound } : {}) }, { timeoutMs });
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

  /** One agent loop of a phase; Research and Plan may ask the user, and `onAnswer` follows each new answer. */
  private loop<Input>(
    spec: PhaseSpec<Input>,
    input: Input,
    { onTextDelta, timeoutMs, onAnswer }: { onTextDelta?: (text: string) => void; timeoutMs?: number | undefined; onAnswer?: () => Promise<void> } = {},
  ): Promise<AgentLoopResult> {
    const { run } = this;
    const asks = spec.tools.some((tool) => tool.name === askUser.name);
    const askUserNow = async (question: UserQuestion, signal: AbortSignal) => {
      const before = (await this.answers.all()).length;
      const reply = await this.answers.ask(spec.phase, question, signal);
      if ((await this.answers.all()).length > before) await onAnswer?.();
      return reply;
    };
    const limits: LoopLimits = {
      timeoutMs: Math.max(1, timeoutMs ?? run.limits.timeoutMs[spec.phase]),
      maxConsecutiveErrors: run.limits.maxConsecutiveErrors,
      maxTotalErrors: run.limits.maxTotalErrors,
    };
    const { llm } = this.models.modelOf(spec.phase);
    return runAgentLoop({
      phase: spec.phase,
      runId: run.runId,
      llm,
      toolMode: run.toolMode,
      messages: spec.messages(input),
      tools: spec.tools.filter((tool) => isOffered(tool.name, this.offer)),
      ...(run.extraTools ? { extraTools: run.extraTools } : {}),
      maxTurns: spec.maxTurns,
      limits,
      finalAnswerAtCap: spec.finalAnswerAtCap,
      ...(onTextDelta ? { onTextDelta } : {}),
      toolContext: asks ? { ...run.toolContext, askUser: askUserNow } : run.toolContext,
      toolLog: this.toolLog,
      ...(run.guard ? { guard: run.guard } : {}),
      emit: run.emit,
      nextCallId: () => `${run.runId}-${(this.calls += 1)}`,
      contextWindow: this.models.windowOf(spec.phase),
      onWindowRefused: (tokens) => this.models.shrink(spec.phase, tokens),
      onPromptCut: (cut) => this.models.tellPromptCut(spec.phase, cut),
      onFixedPart: (size) => this.models.tellFixedPart({ phase: spec.phase, ...size }),
      signal: run.signal,
    });
  }

  /** The request, the project's instructions and the attached items, read when a phase begins and kept for all its requests. */
  private async briefing(phase: Phase): Promise<{ request: string; instructions: string; attachments: string }> {
    return {
      request: this.run.request,
      instructions: await this.sources.instructions(phase),
      attachments: await this.sources.attachments(phase, this.models.windowOf(phase)),
    };
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
