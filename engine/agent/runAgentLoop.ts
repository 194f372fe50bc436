import { ContextKeeper } from './history/contextKeeper.js';
import { LlmError } from '../llm/llmTypes.js';
import { parseTextReply } from '../llm/textToolProtocol.js';
import type { Tool } from '../tools/tool.js';
import type { AgentLoopConfig, AgentLoopResult, LoopFailure } from './agentLoopTypes.js';
import { LoopClock } from './loopClock.js';
import { ErrorBudget } from './loopLimits.js';
import { throwIfStopped } from './loopStopped.js';
import { ModelTurns } from './modelTurns.js';
import { ReplyActor } from './replyActor.js';

/**
 * The agent loop: ask the model, run the tools it calls, hand the results back, until it answers
 * without a tool call or a limit stops it. Anything the model does wrong (unknown tool, arguments that
 * are not JSON, a refused path, a malformed action block) goes back to it as a result and counts as an
 * error; only the model server failing, a limit, or the user's cancel ends the loop early.
 */
export async function runAgentLoop(config: AgentLoopConfig): Promise<AgentLoopResult> {
  const loop = new LoopRun(config);
  try {
    return await loop.run();
  } finally {
    loop.dispose();
  }
}

class LoopRun {
  private readonly context: ContextKeeper;
  private readonly budget: ErrorBudget;
  private readonly controller = new AbortController();
  private readonly clock: LoopClock;
  private readonly model: ModelTurns;
  private readonly actor: ReplyActor;
  private readonly onOuterAbort = () => this.controller.abort();
  private timedOut = false;
  /** What the tool source offered for the current turn. */
  private turnExtras: readonly Tool[] = [];

  constructor(private readonly config: AgentLoopConfig) {
    this.context = new ContextKeeper(config.contextWindow, config.messages);
    this.budget = new ErrorBudget(config.limits);
    this.clock = new LoopClock(config.limits.timeoutMs, () => {
      this.timedOut = true;
      this.controller.abort();
    });
    const { context, budget, clock } = this;
    this.model = new ModelTurns(config, { context, signal: this.controller.signal });
    this.actor = new ReplyActor(config, { context, budget, clock, signal: this.controller.signal });
    if (config.signal.aborted) this.controller.abort();
    else config.signal.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  dispose(): void {
    this.clock.dispose();
    this.config.signal.removeEventListener('abort', this.onOuterAbort);
  }

  async run(): Promise<AgentLoopResult> {
    try {
      while (this.model.turns < this.config.maxTurns) {
        const reply = await this.model.ask(await this.turnTools());
        const step = await this.actor.act(reply, this.turnExtras);
        if (step.kind === 'final') return this.finish({ ok: true, text: step.text });
        const exhausted = this.budget.exhausted();
        if (exhausted) return this.fail('tool-errors', `Stopped after too many tool errors: ${exhausted}`);
      }
      if (!this.config.finalAnswerAtCap) {
        return this.fail('turn-cap', `Stopped at the limit of ${this.config.maxTurns} model turns before finishing.`);
      }
      this.context.push({ role: 'user', content: turnCapMessage(this.config.maxTurns) });
      const last = await this.model.ask([]);
      return this.finish({ ok: true, text: this.finalAnswerOf(last.text) });
    } catch (error) {
      return this.failure(error);
    }
  }

  /**
   * The phase's own tools and what the tool source offers this turn (its list may have changed since the
   * last): the phase's first, in catalog order, then the others by name, so a server that lists its tools
   * in another order, or starts later, changes the request's tool definitions no more than it must.
   */
  private async turnTools(): Promise<readonly Tool[]> {
    const offered = (await this.config.extraTools?.toolsFor(this.config.phase, this.controller.signal)) ?? [];
    this.turnExtras = [...offered].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    throwIfStopped(this.controller.signal);
    return this.turnExtras.length === 0 ? this.config.tools : [...this.config.tools, ...this.turnExtras];
  }

  /** A final answer forced at the turn cap may still carry an action block; the text around it is the answer. */
  private finalAnswerOf(text: string): string {
    if (this.config.toolMode.mode !== 'text') return text;
    const parsed = parseTextReply(text, [...this.config.tools, ...this.turnExtras].map((tool) => tool.name));
    return parsed.kind === 'call' && parsed.reasoning ? parsed.reasoning : text;
  }

  private failure(error: unknown): AgentLoopResult {
    if (this.timedOut) {
      const minutes = Math.round(this.config.limits.timeoutMs / 6000) / 10;
      return this.fail('timeout', `Stopped at the time limit of ${minutes} minutes for this step.`);
    }
    if (this.config.signal.aborted) return this.fail('cancelled', 'Cancelled by the user.');
    if (error instanceof LlmError) return this.fail('model', error.message, error);
    throw error;
  }

  private fail(failure: LoopFailure, error: string, llmError?: LlmError): AgentLoopResult {
    return this.finish({ ok: false as const, failure, error, ...(llmError ? { llmError } : {}) });
  }

  private finish<T extends { ok: boolean }>(result: T): T & Pick<AgentLoopResult, 'turns' | 'toolCalls' | 'usage'> {
    return { ...result, turns: this.model.turns, toolCalls: this.actor.toolCalls, usage: this.model.usage };
  }
}

function turnCapMessage(maxTurns: number): string {
  return (
    `You have used all ${maxTurns} turns of this phase, so no more tools can be called. ` +
    'Reply now with your final answer in the format asked for, from what you have found so far, and say what you could not check.'
  );
}
