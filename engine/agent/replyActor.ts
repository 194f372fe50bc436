import { resultOrigin, type ContextKeeper } from './history/contextKeeper.js';
import type { ChatMessage, LlmReply, LlmToolCall } from '../llm/llmTypes.js';
import { correctionMessage, parseTextReply, textToolResultMessage } from '../llm/textToolProtocol.js';
import { maskStrings } from '../secrets/secretMask.js';
import { executeToolCall, parseArguments, type ExecutedToolCall } from '../tools/executeToolCall.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import type { AgentLoopConfig } from './agentLoopTypes.js';
import type { LoopClock } from './loopClock.js';
import { firstLine, type ErrorBudget } from './loopLimits.js';
import { throwIfStopped } from './loopStopped.js';

/** What a reply means for the loop: the final answer, or tool results handed back and another turn. */
export type ReplyStep = { kind: 'final'; text: string } | { kind: 'continue' };

/**
 * Acts on the model's reply of one turn: runs the tools it calls (native tool calls, or an action block of
 * the text protocol), puts each result into the context and counts each failure against the error budget;
 * a reply that calls no tool is the final answer.
 */
export class ReplyActor {
  private calls = 0;

  constructor(
    private readonly config: AgentLoopConfig,
    private readonly loop: {
      context: ContextKeeper;
      budget: ErrorBudget;
      /** Stands still while a tool waits for the user's answer. */
      clock: LoopClock;
      /** The loop's own signal, which also fires on timeout. */
      signal: AbortSignal;
    },
  ) {}

  /** Tool calls run so far. */
  get toolCalls(): number {
    return this.calls;
  }

  /** One reply; `extras` is what the tool source offered this turn, callable beside the phase's own tools. */
  async act(reply: LlmReply, extras: readonly Tool[]): Promise<ReplyStep> {
    if (reply.toolCalls.length > 0) {
      await this.runNativeCalls(reply, extras);
      return { kind: 'continue' };
    }
    const names = [...this.config.tools, ...extras].map((tool) => tool.name);
    const parsed = names.length > 0 ? parseTextReply(reply.text, names) : ({ kind: 'final', text: reply.text } as const);
    if (parsed.kind === 'final') return { kind: 'final', text: parsed.text };
    // In native mode an action block is only acted on when `auto` may switch to the text protocol.
    const textMode = this.config.toolMode.mode === 'text' || (parsed.kind === 'call' && this.config.toolMode.fallBackToText());
    if (!textMode) return { kind: 'final', text: reply.text };
    this.loop.context.push({ role: 'assistant', content: reply.text });
    if (parsed.kind === 'malformed') {
      this.loop.budget.record(false, parsed.problem);
      this.loop.context.push({ role: 'user', content: correctionMessage(parsed.problem) });
      return { kind: 'continue' };
    }
    const done = await this.runCall({ name: parsed.name, arguments: parsed.arguments }, extras);
    const render = (text: string): ChatMessage => ({ role: 'user', content: textToolResultMessage(parsed.name, text) });
    this.loop.context.push(render(done.contextText), resultOrigin(parsed.name, parsed.arguments, done, render));
    return { kind: 'continue' };
  }

  private async runNativeCalls(reply: LlmReply, extras: readonly Tool[]): Promise<void> {
    this.loop.context.push({
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
      const done = await this.runCall(call, extras);
      const render = (text: string): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: text });
      this.loop.context.push(render(done.contextText), resultOrigin(call.name, call.arguments, done, render));
    }
  }

  private async runCall(call: Pick<LlmToolCall, 'name' | 'arguments'>, extras: readonly Tool[]): Promise<ExecutedToolCall> {
    throwIfStopped(this.loop.signal);
    const { phase, item, runId, emit } = this.config;
    const callId = this.config.nextCallId();
    this.calls += 1;
    const args = maskStrings(argumentsForDisplay(call.arguments), this.config.toolContext.maskSecrets);
    emit({ type: 'tool-started', runId, callId, tool: call.name, args, ...(item === undefined ? {} : { item }) });
    const done = await executeToolCall(call, {
      phase,
      runId,
      context: this.toolContext(),
      log: this.config.toolLog,
      extraTools: extras,
      ...(this.config.guard ? { guard: this.config.guard } : {}),
    });
    emit({ type: 'tool-finished', runId, callId, ok: done.ok, summary: firstLine(done.result), durationMs: done.durationMs, ...(done.preview ? { table: done.preview } : {}) });
    // A "no" from the user is an answer, not a mistake of the model: it does not count against the limits.
    if (done.refused !== 'denied' && done.refused !== 'expired') this.loop.budget.record(done.ok, done.result);
    return done;
  }

  /** The tool context with the loop's own signal; a question to the user stops the loop's clock while it waits. */
  private toolContext(): ToolContext {
    const { askUser, ...context } = this.config.toolContext;
    return {
      ...context,
      signal: this.loop.signal,
      ...(askUser ? { askUser: (question, signal) => this.loop.clock.whilePaused(() => askUser(question, signal)) } : {}),
    };
  }
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
