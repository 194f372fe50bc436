import type { Phase } from '../contract/index.js';
import type { AgentLoopResult } from '../agent/agentLoopTypes.js';
import { runAgentLoop } from '../agent/runAgentLoop.js';
import type { LoopLimits } from '../agent/loopLimits.js';
import type { ToolLog } from '../store/toolLog.js';
import { askUser } from '../tools/askUser.js';
import type { UserQuestion } from '../tools/tool.js';
import { isOffered, type ToolOffer } from '../tools/phaseTools.js';
import { ChangeRecords } from './changeRecords.js';
import { ContextSources } from './contextSources.js';
import { ItemChecks } from './itemChecks.js';
import type { PhaseSpec } from './phases.js';
import { PhaseStopped, type RpiRun } from './rpiRun.js';
import { RunModels } from './runModels.js';
import { UserAnswers } from './userAnswers.js';

/**
 * What every phase of one run shares to run its agent loops: the run's models, context sources, answers,
 * change records and item checks, the tool offer, and the counter that numbers the run's tool calls.
 */
export class PhaseLoops {
  readonly emit: RpiRun['emit'];
  private calls = 0;
  readonly models: RunModels;
  /** Which of a phase's tools are offered; set when Research and Implement begin (Plan offers no table tool). */
  private offer: ToolOffer = { tables: true, workbooks: true };
  readonly sources: ContextSources;
  /** The changes the run's tool calls made, for what an item is told changed since its phase began. */
  readonly changes = new ChangeRecords();
  private readonly toolLog: Pick<ToolLog, 'append'>;
  readonly checks: ItemChecks;
  /** The request's questions to the user (ask_user) and their answers. */
  readonly answers: UserAnswers;

  constructor(readonly run: RpiRun) {
    this.emit = run.emit;
    this.models = new RunModels({ runId: run.runId, llm: run.llm, contextWindow: run.contextWindow, ...(run.phaseModels ? { phaseModels: run.phaseModels } : {}), emit: run.emit });
    this.sources = new ContextSources({ runId: run.runId, contextItems: run.contextItems ?? [], toolContext: run.toolContext, emit: run.emit, signal: run.signal });
    this.toolLog = this.changes.recording(run.toolLog);
    const { runId, stateDir, toolContext, guard, emit, signal } = run;
    this.checks = new ItemChecks({ runId, stateDir, folderCheck: run.folderCheck ?? null, toolContext, toolLog: this.toolLog, ...(guard ? { guard } : {}), emit, signal });
    this.answers = new UserAnswers({ ...(run.questions ? { desk: run.questions } : {}), maskSecrets: run.toolContext.maskSecrets });
  }

  /** Sets which tools the phase that begins now offers, from the texts that ask for them. */
  async offerToolsFor(texts: readonly string[]): Promise<void> {
    this.offer = await this.sources.toolOffer(texts);
  }

  /** One agent loop of a phase; Research and Plan may ask the user, and `onAnswer` follows each new answer. */
  loop<Input>(
    spec: PhaseSpec<Input>,
    input: Input,
    { onTextDelta, timeoutMs, onAnswer, item }: { onTextDelta?: (text: string) => void; timeoutMs?: number | undefined; onAnswer?: () => Promise<void>; item?: number } = {},
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
      ...(item === undefined ? {} : { item }),
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
  async briefing(phase: Phase): Promise<{ request: string; instructions: string; attachments: string }> {
    return {
      request: this.run.request,
      instructions: await this.sources.instructions(phase),
      attachments: await this.sources.attachments(phase, this.models.windowOf(phase)),
    };
  }

  textOrStop(phase: Phase, result: AgentLoopResult): string {
    if (result.ok) return result.text;
    if (result.failure === 'cancelled') throw new PhaseStopped({ status: 'cancelled', phase });
    return this.stop(phase, result.error);
  }

  stop(phase: Phase, error: string): never {
    throw new PhaseStopped({ status: 'failed', phase, error });
  }
}
