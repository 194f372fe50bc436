import { ContextKeeper, resultOrigin, type FittedRequest } from './history/contextKeeper.js';
import type { Phase, UnsequencedEvent } from '../contract/index.js';
import { LlmError, type ChatMessage, type LlmClient, type LlmReply, type LlmToolCall, type LlmUsage } from '../llm/llmTypes.js';
import { correctionMessage, parseTextReply, textToolInstructions, textToolResultMessage } from '../llm/textToolProtocol.js';
import { refusedTwiceError } from '../llm/llmErrorMessages.js';
import { markLast } from '../llm/cacheHints/cacheBreakpoints.js';
import { promptWasCut } from '../llm/contextWindow/promptWasCut.js';
import { maskStrings } from '../secrets/secretMask.js';
import type { ToolLog } from '../store/toolLog.js';
import { executeToolCall, parseArguments, type ExecutedToolCall, type ToolGuard } from '../tools/executeToolCall.js';
import { warmSearchWorkers } from '../tools/search/runSearch.js';
import { searchFiles } from '../tools/searchFiles.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import type { ToolSource } from '../tools/toolSource.js';
import { toolDefinitions } from '../tools/toolCatalog.js';
import { LoopClock } from './loopClock.js';
import { ErrorBudget, firstLine, type LoopLimits } from './loopLimits.js';
import type { ToolModeState } from './toolMode.js';

/** A refusal that names no window leaves later loops this share of the window they had. */
const refusedWindowShare = 0.7;

/** Everything one loop needs; each phase (and each plan item) builds a fresh one (seed 003 §4a). */
export interface AgentLoopConfig {
  phase: Phase;
  runId: string;
  llm: LlmClient;
  toolMode: ToolModeState;
  /** The fresh context: system prompt and the phase's own user message(s). */
  messages: readonly ChatMessage[];
  tools: readonly Tool[];
  /** More tools (the user's MCP servers), asked for before each turn: what it offers this phase is offered, and callable, that turn. */
  extraTools?: ToolSource;
  /** Model calls allowed, the last one included. */
  maxTurns: number;
  limits: LoopLimits;
  /** At the turn cap, ask once more without tools for a final answer instead of failing. */
  finalAnswerAtCap: boolean;
  /** Streams the model's text (the summary only); internal phases leave it out. */
  onTextDelta?: (text: string) => void;
  /** The tool context; its signal is replaced by the loop's own, which also fires on timeout. */
  toolContext: Omit<ToolContext, 'signal'>;
  /** Continues the tool-log ids of earlier phases and runs. */
  toolLog: Pick<ToolLog, 'append'>;
  /** Approval and checkpoint before a tool changes anything; every call runs when absent. */
  guard?: ToolGuard;
  emit: (event: UnsequencedEvent) => void;
  /** Hands out run-wide unique ids for tool-started / tool-finished. */
  nextCallId: () => string;
  /** The model's window in tokens: every request is kept within its budget (engine/context/). */
  contextWindow: number;
  /**
   * The server refused a request as too long: the window it named, or a clear cut below this one. Later
   * loops of the run start from it, so each phase and item does not meet the same refusal again.
   */
  onWindowRefused?: (contextWindow: number) => void;
  /**
   * The server counted far fewer prompt tokens than were sent (promptWasCut): it dropped the start of the
   * prompt to fit a smaller window than the one assumed, as Ollama does at its default context length.
   */
  onPromptCut?: (cut: { sentTokens: number; countedTokens: number }) => void;
  /**
   * The loop's first request, as fitted: its fixed part alone (system prompt, tools, the phase's own
   * messages), which every later request carries too, and the budget each request is fitted to.
   */
  onFixedPart?: (size: { tokens: number; budget: number }) => void;
  signal: AbortSignal;
}

/** One turn's usage as the client normalised it (LlmUsage), and what it cost. */
export type TurnUsage = Omit<LlmUsage, 'estimated'>;

export type LoopFailure = 'cancelled' | 'timeout' | 'turn-cap' | 'tool-errors' | 'model';

export type AgentLoopResult = (
  | { ok: true; text: string }
  | { ok: false; failure: LoopFailure; error: string; llmError?: LlmError }
) & { turns: number; toolCalls: number; usage: TurnUsage[] };

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
  private readonly onOuterAbort = () => this.controller.abort();
  private timedOut = false;
  private turns = 0;
  private toolCalls = 0;
  /** What the tool source offered for the current turn. */
  private turnExtras: readonly Tool[] = [];
  private readonly usage: TurnUsage[] = [];

  constructor(private readonly config: AgentLoopConfig) {
    this.context = new ContextKeeper(config.contextWindow, config.messages);
    this.budget = new ErrorBudget(config.limits);
    this.clock = new LoopClock(config.limits.timeoutMs, () => {
      this.timedOut = true;
      this.controller.abort();
    });
    if (config.signal.aborted) this.controller.abort();
    else config.signal.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  dispose(): void {
    this.clock.dispose();
    this.config.signal.removeEventListener('abort', this.onOuterAbort);
  }

  async run(): Promise<AgentLoopResult> {
    try {
      while (this.turns < this.config.maxTurns) {
        const reply = await this.ask(await this.turnTools());
        const step = await this.act(reply);
        if (step.kind === 'final') return this.finish({ ok: true, text: step.text });
        const exhausted = this.budget.exhausted();
        if (exhausted) return this.fail('tool-errors', `Stopped after too many tool errors: ${exhausted}`);
      }
      if (!this.config.finalAnswerAtCap) {
        return this.fail('turn-cap', `Stopped at the limit of ${this.config.maxTurns} model turns before finishing.`);
      }
      this.context.push({ role: 'user', content: turnCapMessage(this.config.maxTurns) });
      const last = await this.ask([]);
      return this.finish({ ok: true, text: this.finalAnswerOf(last.text) });
    } catch (error) {
      return this.failure(error);
    }
  }

  /**
   * One model call; in text mode the tools travel in the system prompt instead of the request. The request
   * is fitted to the context budget first; when the server still finds it too long, the budget shrinks
   * and the same turn is asked once more (no tool runs again: tools run only after a reply).
   */
  private async ask(tools: readonly Tool[]): Promise<LlmReply> {
    this.throwIfStopped();
    this.turns += 1;
    // While the model thinks, search_files' workers start (or are kept), so its first search of a phase
    // finds them ready instead of paying for their start; warmed at a tool call, they came too late for that.
    if (tools.some((tool) => tool.name === searchFiles.name)) warmSearchWorkers();
    const definitions = toolDefinitions(tools);
    let refused: LlmError | null = null;
    for (;;) {
      const textMode = this.config.toolMode.mode === 'text';
      const fitted = await this.context.fit((fit) => {
        // The turn's last message ends the prefix the next turn repeats (a breakpoint where one is sent).
        const messages = markLast(fit);
        return {
          messages: textMode && definitions.length > 0 ? withTextTools(messages, textToolInstructions(definitions)) : messages,
          ...(textMode ? {} : { tools: definitions }),
        };
      });
      this.reportTrim(fitted, refused !== null);
      if (this.turns === 1 && refused === null) this.config.onFixedPart?.({ tokens: fitted.promptTokens, budget: this.context.budget });
      try {
        const reply = await this.config.llm.complete(fitted.request, {
          signal: this.controller.signal,
          onStatus: (status) => this.config.emit({ type: 'model-status', runId: this.config.runId, phase: this.config.phase, ...status }),
          ...(this.config.onTextDelta ? { onTextDelta: this.config.onTextDelta } : {}),
        });
        this.recordUsage(reply);
        // Only a loop's first request is checked: later ones share a prefix a server may have cached, and
        // some count only the tokens they had to process (llama.cpp before it added cache_n).
        const counted = reply.usage.promptTokens;
        if (this.turns === 1 && !reply.usage.estimated && promptWasCut({ sentEstimate: fitted.promptTokens, reportedPromptTokens: counted, contextWindow: counted })) {
          this.config.onPromptCut?.({ sentTokens: fitted.promptTokens, countedTokens: counted });
        }
        return reply;
      } catch (error) {
        if (error instanceof LlmError && error.kind === 'tools-unsupported' && this.config.toolMode.fallBackToText()) {
          this.config.emit({ type: 'warning', runId: this.config.runId, message: `${error.message} Switching to the text tool protocol for this run.` });
          continue;
        }
        if (error instanceof LlmError && error.kind === 'context-exceeded') {
          if (refused === null) {
            refused = error;
            this.context.shrink(error.contextLimit);
            this.config.onWindowRefused?.(error.contextLimit ?? Math.floor(this.config.contextWindow * refusedWindowShare));
            continue;
          }
          throw refusedTwiceError({
            baseUrl: this.config.llm.baseUrl,
            status: error.status,
            promptTokens: fitted.promptTokens,
            contextWindow: this.config.contextWindow,
            serverLimit: error.contextLimit ?? refused.contextLimit,
          });
        }
        throw error;
      }
    }
  }

  /** Shows what fitting the request changed, and the budget after the server refused a request as too long. */
  private reportTrim({ trimmed, promptTokens }: FittedRequest, afterRefusal: boolean): void {
    if (!trimmed && !afterRefusal) return;
    const { setAside = 0, condensed = 0, cut = 0 } = trimmed ?? {};
    this.config.emit({
      type: 'context-trimmed',
      runId: this.config.runId,
      phase: this.config.phase,
      setAside,
      condensed,
      cut,
      promptTokens,
      budget: this.context.budget,
      contextWindow: this.config.contextWindow,
      ...(afterRefusal ? { afterRefusal } : {}),
    });
  }

  private async act(reply: LlmReply): Promise<{ kind: 'final'; text: string } | { kind: 'continue' }> {
    if (reply.toolCalls.length > 0) {
      await this.runNativeCalls(reply);
      return { kind: 'continue' };
    }
    const names = [...this.config.tools, ...this.turnExtras].map((tool) => tool.name);
    const parsed = names.length > 0 ? parseTextReply(reply.text, names) : ({ kind: 'final', text: reply.text } as const);
    if (parsed.kind === 'final') return { kind: 'final', text: parsed.text };
    // In native mode an action block is only acted on when `auto` may switch to the text protocol.
    const textMode = this.config.toolMode.mode === 'text' || (parsed.kind === 'call' && this.config.toolMode.fallBackToText());
    if (!textMode) return { kind: 'final', text: reply.text };
    this.context.push({ role: 'assistant', content: reply.text });
    if (parsed.kind === 'malformed') {
      this.budget.record(false, parsed.problem);
      this.context.push({ role: 'user', content: correctionMessage(parsed.problem) });
      return { kind: 'continue' };
    }
    const done = await this.runCall({ name: parsed.name, arguments: parsed.arguments });
    const render = (text: string): ChatMessage => ({ role: 'user', content: textToolResultMessage(parsed.name, text) });
    this.context.push(render(done.contextText), resultOrigin(parsed.name, parsed.arguments, done, render));
    return { kind: 'continue' };
  }

  private async runNativeCalls(reply: LlmReply): Promise<void> {
    this.context.push({
      role: 'assistant',
      content: reply.text || null,
      // DeepSeek's thinking mode refuses the next turn of a tool loop without the reasoning it streamed.
      ...reply.reasoningEcho,
      tool_calls: reply.toolCalls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: argumentsText(call.arguments) },
        // Gemini refuses the next turn unless each call's thought signature comes back with it.
        ...(call.extraContent === undefined ? {} : { extra_content: call.extraContent }),
      })),
    });
    for (const call of reply.toolCalls) {
      // Every call of the turn gets its answer, so the history stays valid even when the loop stops next.
      const done = await this.runCall(call);
      const render = (text: string): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: text });
      this.context.push(render(done.contextText), resultOrigin(call.name, call.arguments, done, render));
    }
  }

  private async runCall(call: Pick<LlmToolCall, 'name' | 'arguments'>): Promise<ExecutedToolCall> {
    this.throwIfStopped();
    const { phase, runId, emit } = this.config;
    const callId = this.config.nextCallId();
    this.toolCalls += 1;
    const args = maskStrings(argumentsForDisplay(call.arguments), this.config.toolContext.maskSecrets);
    emit({ type: 'tool-started', runId, callId, tool: call.name, args });
    const done = await executeToolCall(call, {
      phase,
      runId,
      context: this.toolContext(),
      log: this.config.toolLog,
      extraTools: this.turnExtras,
      ...(this.config.guard ? { guard: this.config.guard } : {}),
    });
    emit({ type: 'tool-finished', runId, callId, ok: done.ok, summary: firstLine(done.result), durationMs: done.durationMs, ...(done.preview ? { table: done.preview } : {}) });
    // A "no" from the user is an answer, not a mistake of the model: it does not count against the limits.
    if (done.refused !== 'denied' && done.refused !== 'expired') this.budget.record(done.ok, done.result);
    return done;
  }

  /** The tool context with the loop's own signal; a question to the user stops the loop's clock while it waits. */
  private toolContext(): ToolContext {
    const { askUser, ...context } = this.config.toolContext;
    return {
      ...context,
      signal: this.controller.signal,
      ...(askUser ? { askUser: (question, signal) => this.clock.whilePaused(() => askUser(question, signal)) } : {}),
    };
  }

  /**
   * The phase's own tools and what the tool source offers this turn (its list may have changed since the
   * last): the phase's first, in catalog order, then the others by name, so a server that lists its tools
   * in another order, or starts later, changes the request's tool definitions no more than it must.
   */
  private async turnTools(): Promise<readonly Tool[]> {
    const offered = (await this.config.extraTools?.toolsFor(this.config.phase, this.controller.signal)) ?? [];
    this.turnExtras = [...offered].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.throwIfStopped();
    return this.turnExtras.length === 0 ? this.config.tools : [...this.config.tools, ...this.turnExtras];
  }

  private recordUsage(reply: LlmReply): void {
    const { estimated, ...turn } = reply.usage;
    this.usage.push(turn);
    this.config.emit({ type: 'usage', runId: this.config.runId, phase: this.config.phase, ...turn, contextWindow: this.config.contextWindow, estimated, model: this.config.llm.model });
  }

  /** A final answer forced at the turn cap may still carry an action block; the text around it is the answer. */
  private finalAnswerOf(text: string): string {
    if (this.config.toolMode.mode !== 'text') return text;
    const parsed = parseTextReply(text, [...this.config.tools, ...this.turnExtras].map((tool) => tool.name));
    return parsed.kind === 'call' && parsed.reasoning ? parsed.reasoning : text;
  }

  private throwIfStopped(): void {
    if (this.controller.signal.aborted) throw new LlmError('cancelled', 'The run was cancelled.');
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
    return { ...result, turns: this.turns, toolCalls: this.toolCalls, usage: this.usage };
  }
}

function withTextTools(history: readonly ChatMessage[], instructions: string): ChatMessage[] {
  const [first, ...rest] = history;
  if (first?.role === 'system' && typeof first.content === 'string') {
    return [{ role: 'system', content: `${first.content}\n\n${instructions}` }, ...rest];
  }
  return [{ role: 'system', content: instructions }, ...history];
}

function turnCapMessage(maxTurns: number): string {
  return (
    `You have used all ${maxTurns} turns of this phase, so no more tools can be called. ` +
    'Reply now with your final answer in the format asked for, from what you have found so far, and say what you could not check.'
  );
}

/** The history keeps arguments as JSON text, as the API requires, whatever form the server sent. */
function argumentsText(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  return JSON.stringify(raw ?? {});
}

/** Arguments for tool-started: the parsed object, or the raw text when it is not a JSON object. */
function argumentsForDisplay(raw: unknown): Record<string, unknown> {
  const parsed = parseArguments(raw);
  if (parsed.ok) return parsed.value;
  // Shown raw; the executor answers the model with what is wrong.
  return typeof raw === 'string' ? { raw } : {};
}
