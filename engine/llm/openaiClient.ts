import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { cancelledError, llmErrorFrom, streamFailureError, type ErrorContext } from './llmErrors.js';
import type { CompleteOptions, LlmClient, LlmReply, LlmRequest, LlmUsage } from './llmTypes.js';
import { openAiSdk } from './openaiSdk.js';
import { streamAttempt, type StreamedReply } from './streamAttempt.js';
import { createTextRelay } from './textRelay.js';
import { estimateCompletionTokens, estimatePromptTokens } from './tokenEstimate.js';

export interface LlmClientOptions {
  baseUrl: string;
  /** null for local servers that need none. */
  apiKey: string | null;
  model: string;
  /** How long a stream may stay silent after its headers before the attempt is given up. Default 90 s. */
  idleTimeoutMs?: number;
  /** The SDK's retries of 429, 5xx and connection failures before the headers (honouring retry-after). Default 2. */
  maxRetries?: number;
  /** Retries of a whole turn whose stream dropped, stalled or ended without a finish_reason. Default 2. */
  streamRetries?: number;
  fetch?: typeof fetch;
}

const DEFAULT_IDLE_TIMEOUT_MS = 90_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_STREAM_RETRIES = 2;

/** Rejects with `cancelled()` the moment the signal aborts, even while the SDK sleeps before a retry. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, cancelled: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function usageOf(streamed: StreamedReply, request: LlmRequest): Promise<LlmUsage> {
  if (streamed.usage) return { ...streamed.usage, estimated: false };
  const [promptTokens, completionTokens] = await Promise.all([
    estimatePromptTokens(request.messages, request.tools),
    estimateCompletionTokens(streamed.text, streamed.toolCalls),
  ]);
  return { promptTokens, completionTokens, estimated: true };
}

/**
 * An LlmClient over any OpenAI-compatible Chat Completions endpoint, always streaming.
 *
 * Failures before the response headers (429, 5xx, refused connections) are retried by the SDK; a
 * stream that drops, stalls or ends without a finish_reason is retried here as a whole turn. Text
 * reaches `onTextDelta` once across those retries (see createTextRelay); the reply returned is the
 * last attempt's, whole.
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { baseUrl, apiKey, model } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const streamRetries = options.streamRetries ?? DEFAULT_STREAM_RETRIES;
  const errorContext: ErrorContext = { baseUrl, model, apiKey, maxRetries };
  const sdk = openAiSdk({ baseUrl, apiKey, maxRetries, ...(options.fetch ? { fetch: options.fetch } : {}) });

  function paramsFor(request: LlmRequest): ChatCompletionCreateParamsStreaming {
    return {
      model,
      messages: request.messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
    };
  }

  async function runTurn(request: LlmRequest, { signal, onTextDelta }: CompleteOptions): Promise<LlmReply> {
    const params = paramsFor(request);
    const relay = createTextRelay(onTextDelta);
    for (let attempt = 1; ; attempt++) {
      const outcome = await streamAttempt({ sdk, params, signal, idleTimeoutMs, onText: relay.startAttempt() }).catch(
        (error: unknown) => {
          throw llmErrorFrom(error, errorContext, signal.aborted);
        },
      );
      if (outcome.ok) {
        const { text, toolCalls, finishReason } = outcome.reply;
        return { text, toolCalls, finishReason, usage: await usageOf(outcome.reply, request) };
      }
      if (attempt > streamRetries) {
        throw streamFailureError(outcome.failure, { ...errorContext, attempts: attempt, idleTimeoutMs });
      }
    }
  }

  return {
    baseUrl,
    model,
    complete(request, completeOptions) {
      const cancelled = () => cancelledError(errorContext);
      if (completeOptions.signal.aborted) return Promise.reject(cancelled());
      return untilAborted(runTurn(request, completeOptions), completeOptions.signal, cancelled);
    },
  };
}
