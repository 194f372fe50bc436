import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PromptCaching, UserPrice } from '../contract/index.js';
import { wireMessages } from './cacheHints/cacheBreakpoints.js';
import { hintsRefusedBy, rememberHintRefusal } from './cacheHints/hintRefusals.js';
import { cacheHintsFor, carriesHints, noCacheHints, type CacheHints } from './cacheHints/serverCacheHints.js';
import type { StreamedReply } from './chunkReader.js';
import { cancelledError, llmErrorFrom, type ErrorContext } from './llmErrorMessages.js';
import { streamFailureError } from './streamFailureError.js';
import { type LlmError, type CompleteOptions, type LlmClient, type LlmReply, type LlmRequest, type LlmStatus, type LlmUsage } from './llmTypes.js';
import { openAiSdk } from './openaiSdk.js';
import { requestCost } from './prices/requestCost.js';
import { defaultRetrySettings, retryDelayMs, verdictOnError, verdictOnFailure, type RetrySettings, type RetryVerdict } from './retryPolicy.js';
import { streamAttempt, type AttemptFailure } from './streamAttempt.js';
import { createTextRelay, type AttemptText } from './textRelay.js';
import { estimateCompletionTokens, estimatePromptTokens } from './tokenEstimate.js';
import type { ReportedUsage } from './usage/tokenUsage.js';

export interface LlmClientOptions {
  baseUrl: string;
  /** null for local servers that need none. */
  apiKey: string | null;
  model: string;
  /** How long the server may take to send the response headers. Default 120 s. */
  firstByteTimeoutMs?: number;
  /** How long a stream may send nothing at all (not even a keep-alive) after its headers. Default 90 s. */
  idleTimeoutMs?: number;
  /** How long a server may keep a request queued, sending only keep-alives. Default 35 min (DeepSeek documents up to 30). */
  queueLimitMs?: number;
  /** Attempts after the first, for any failure worth retrying (see retryPolicy.ts). Default 4. */
  maxRetries?: number;
  /** The first backoff between attempts, doubling each time up to 30 s. Default 1 s; Retry-After wins. */
  retryBaseDelayMs?: number;
  /** The user's price for this model (Settings), which overrides the server's reported cost and the catalog's price. */
  price?: UserPrice | null;
  /** The folder's random prompt cache key, sent to the servers that document one (serverCacheHints.ts); none when absent. */
  cacheKey?: string | null;
  /** `off` sends no cache hints at all; `auto` (the default) what the server documents. */
  promptCaching?: PromptCaching;
  fetch?: typeof fetch;
}

const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 120_000;
const DEFAULT_IDLE_TIMEOUT_MS = 90_000;
const DEFAULT_QUEUE_LIMIT_MS = 35 * 60_000;

/** Rejects with `cancelled()` the moment the signal aborts, even while waiting before a retry. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, cancelled: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The reply's usage as the server reported it, else estimated with the tokenizer (nothing then counts as cached). */
async function reportedOrEstimated(streamed: StreamedReply, request: LlmRequest): Promise<ReportedUsage & { estimated: boolean }> {
  if (streamed.usage) return { ...streamed.usage, estimated: false };
  const [promptTokens, completionTokens] = await Promise.all([
    estimatePromptTokens(request.messages, request.tools),
    estimateCompletionTokens(streamed.text, streamed.toolCalls),
  ]);
  return { promptTokens, cachedTokens: 0, cacheWriteTokens: 0, completionTokens, reasoningTokens: 0, costUsd: null, estimated: true };
}

type AttemptResult =
  | { ok: true; reply: StreamedReply }
  /** `badRequest`: the server refused the request itself (HTTP 400/422, not for its length or its tools). */
  | { ok: false; verdict: RetryVerdict; error: () => LlmError; badRequest: boolean };

/**
 * An LlmClient over any OpenAI-compatible Chat Completions endpoint, always streaming.
 *
 * Each turn is tried up to 1 + maxRetries times: answers of 408/409/429/5xx, connections that fail or
 * time out before the headers, and streams that drop, stall, end unfinished or arrive garbled are tried
 * again after a backoff (the server's Retry-After when it sends one); each wait is told through
 * `onStatus` as it starts. Text reaches `onTextDelta` once across attempts (see createTextRelay); the
 * reply returned is the last attempt's, whole.
 *
 * Cache hints (a cache key, `cache_control` breakpoints) go only where the server documents them; a
 * request with hints that the server refuses (HTTP 400) is sent once more without, within the same
 * attempt, and when that one is taken the server gets no hints for the rest of the process.
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { baseUrl, apiKey, model } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const queueLimitMs = options.queueLimitMs ?? DEFAULT_QUEUE_LIMIT_MS;
  const firstByteTimeoutMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
  const retry: RetrySettings = {
    ...defaultRetrySettings,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.retryBaseDelayMs === undefined ? {} : { baseDelayMs: options.retryBaseDelayMs }),
  };
  const sdk = openAiSdk({ baseUrl, apiKey, maxRetries: 0, timeoutMs: firstByteTimeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const contextAfter = (attempts: number): ErrorContext => ({ baseUrl, model, apiKey, maxRetries: attempts - 1, firstByteTimeoutMs });
  const serverHints = options.promptCaching === 'off' ? noCacheHints : cacheHintsFor({ baseUrl, model, cacheKey: options.cacheKey ?? null });
  const server = { holdsBodyOpen: false };

  async function usageOf(streamed: StreamedReply, request: LlmRequest): Promise<LlmUsage> {
    const usage = await reportedOrEstimated(streamed, request);
    return { ...usage, costUsd: await requestCost({ usage, userPrice: options.price ?? null, model, baseUrl }) };
  }

  function paramsFor(request: LlmRequest, hints: CacheHints): ChatCompletionCreateParamsStreaming {
    return {
      ...hints.body,
      model,
      messages: wireMessages(request.messages, hints.breakpoints),
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
    };
  }

  async function attemptOnce(request: LlmRequest, attempt: number, relayText: AttemptText, hints: CacheHints, { signal, onStatus }: CompleteOptions): Promise<AttemptResult> {
    try {
      const params = paramsFor(request, hints);
      const outcome = await streamAttempt({ sdk, params, headers: hints.headers, signal, firstByteTimeoutMs, idleTimeoutMs, queueLimitMs, onText: relayText, onStatus: onStatus ?? (() => {}), server });
      if (outcome.ok) return outcome;
      const failure: AttemptFailure = outcome.failure;
      return { ok: false, verdict: verdictOnFailure(failure, idleTimeoutMs), error: () => streamFailureError(failure, { ...contextAfter(attempt), attempts: attempt, idleTimeoutMs, queueLimitMs }), badRequest: false };
    } catch (error) {
      if (signal.aborted) throw cancelledError(contextAfter(attempt));
      const badRequest = llmErrorFrom(error, contextAfter(attempt), false).kind === 'bad-request';
      return { ok: false, verdict: verdictOnError(error), error: () => llmErrorFrom(error, contextAfter(attempt), false), badRequest };
    }
  }

  /** One attempt with the server's cache hints; refused for a bad request, once more without them. */
  async function attemptWithHints(request: LlmRequest, attempt: number, relayText: () => AttemptText, completeOptions: CompleteOptions): Promise<AttemptResult> {
    const hints = hintsRefusedBy(baseUrl) ? noCacheHints : serverHints;
    const result = await attemptOnce(request, attempt, relayText(), hints, completeOptions);
    if (result.ok || !result.badRequest || !carriesHints(hints)) return result;
    const withoutHints = await attemptOnce(request, attempt, relayText(), noCacheHints, completeOptions);
    if (withoutHints.ok || !withoutHints.badRequest) rememberHintRefusal(baseUrl);
    return withoutHints;
  }

  async function runTurn(request: LlmRequest, completeOptions: CompleteOptions): Promise<LlmReply> {
    const relay = createTextRelay(completeOptions.onTextDelta);
    const attempts = 1 + retry.maxRetries;
    for (let attempt = 1; ; attempt++) {
      const result = await attemptWithHints(request, attempt, () => relay.startAttempt(), completeOptions);
      if (result.ok) {
        const { text, reasoning, reasoningEcho, toolCalls, finishReason } = result.reply;
        return { text, reasoning, reasoningEcho, toolCalls, finishReason, usage: await usageOf(result.reply, request) };
      }
      const { verdict } = result;
      const tooLongAWait = verdict.serverDelayMs !== undefined && verdict.serverDelayMs > retry.maxServerDelayMs;
      if (!verdict.retry || attempt >= attempts || tooLongAWait) throw result.error();
      const delayMs = retryDelayMs(attempt, retry, verdict.serverDelayMs);
      const status: LlmStatus = { state: 'retrying', attempt: attempt + 1, attempts, delayMs, reason: verdict.reason };
      completeOptions.onStatus?.(status);
      await sleep(delayMs, undefined, { signal: completeOptions.signal }).catch(() => undefined);
      if (completeOptions.signal.aborted) throw cancelledError(contextAfter(attempt));
    }
  }

  return {
    baseUrl,
    model,
    complete(request, completeOptions) {
      const cancelled = () => cancelledError(contextAfter(1));
      if (completeOptions.signal.aborted) return Promise.reject(cancelled());
      return untilAborted(runTurn(request, completeOptions), completeOptions.signal, cancelled);
    },
  };
}
