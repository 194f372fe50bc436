import { APIError, APIUserAbortError, type OpenAI } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { StreamFailureKind } from './llmErrors.js';
import type { LlmToolCall } from './llmTypes.js';
import type { AttemptText } from './textRelay.js';
import { ToolCallAssembler } from './toolCallAssembler.js';

export interface AttemptInput {
  sdk: OpenAI;
  params: ChatCompletionCreateParamsStreaming;
  /** The caller's signal; aborting it ends the attempt at once. */
  signal: AbortSignal;
  idleTimeoutMs: number;
  onText: AttemptText;
}

/** A complete reply as streamed; usage is null when the server sent none. */
export interface StreamedReply {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: string;
  usage: { promptTokens: number; completionTokens: number } | null;
}

/** A reply, or a broken stream worth retrying as a whole. */
export type AttemptOutcome = { ok: true; reply: StreamedReply } | { ok: false; failure: StreamFailureKind };

interface IdleWatchdog {
  /** Starts the countdown, or starts it over. */
  arm(): void;
  disarm(): void;
  readonly fired: boolean;
}

function idleWatchdog(idleTimeoutMs: number, onIdle: () => void): IdleWatchdog {
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  return {
    arm() {
      if (fired) return;
      if (timer) timer.refresh();
      else
        timer = setTimeout(() => {
          fired = true;
          onIdle();
        }, idleTimeoutMs);
    },
    disarm: () => clearTimeout(timer),
    get fired() {
      return fired;
    },
  };
}

/** Gathers the chunks of one attempt: text, tool-call fragments, finish reason and usage. */
class ChunkReader {
  private readonly textPieces: string[] = [];
  private readonly toolCalls = new ToolCallAssembler();
  private finishReason: string | null = null;
  private usage: StreamedReply['usage'] = null;

  constructor(private readonly onText: AttemptText) {}

  read(chunk: ChatCompletionChunk): void {
    this.readUsage(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) return;
    const content = choice.delta?.content;
    if (typeof content === 'string' && content !== '') {
      this.textPieces.push(content);
      this.onText(content);
    }
    this.toolCalls.addAll(choice.delta?.tool_calls);
    // Typed as OpenAI's few reasons, but servers send others (and some an empty string while streaming).
    const finishReason: unknown = choice.finish_reason;
    if (typeof finishReason === 'string' && finishReason !== '') this.finishReason = finishReason;
  }

  /** The reply, or null when the stream never said why it ended. */
  reply(): StreamedReply | null {
    if (this.finishReason === null) return null;
    return { text: this.textPieces.join(''), toolCalls: this.toolCalls.calls(), finishReason: this.finishReason, usage: this.usage };
  }

  private readUsage(usage: ChatCompletionChunk['usage']): void {
    if (typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
      this.usage = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
    }
  }
}

/**
 * One request and its stream. Errors before the response headers (after the SDK's own retries), errors
 * the server sends inside the stream, and the caller's abort are thrown; a stream that drops, stalls
 * for `idleTimeoutMs` or ends without a finish_reason is an outcome the caller may retry.
 *
 * The attempt has its own AbortController, chained to the caller's signal, so the idle watchdog can end
 * it without touching the caller's. The SDK ends iteration quietly when the request is aborted, so how
 * the stream ended is read from the signals, not from an error.
 */
export async function streamAttempt({ sdk, params, signal, idleTimeoutMs, onText }: AttemptInput): Promise<AttemptOutcome> {
  if (signal.aborted) throw new APIUserAbortError();
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const watchdog = idleWatchdog(idleTimeoutMs, abort);
  const reader = new ChunkReader(onText);
  let headersReceived = false;
  try {
    const stream = await sdk.chat.completions.create(params, { signal: controller.signal });
    headersReceived = true;
    watchdog.arm();
    for await (const chunk of stream) {
      watchdog.arm();
      reader.read(chunk);
    }
  } catch (error) {
    if (signal.aborted || !headersReceived || error instanceof APIError) throw error;
    return { ok: false, failure: watchdog.fired ? 'stalled' : 'dropped' };
  } finally {
    watchdog.disarm();
    signal.removeEventListener('abort', abort);
  }
  if (signal.aborted) throw new APIUserAbortError();
  if (watchdog.fired) return { ok: false, failure: 'stalled' };
  const reply = reader.reply();
  return reply === null ? { ok: false, failure: 'truncated' } : { ok: true, reply };
}
