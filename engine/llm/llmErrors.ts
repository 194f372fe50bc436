import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { LlmError } from './llmTypes.js';
import type { AttemptFailure } from './streamAttempt.js';
import type { ReportedError } from './streamFrames.js';

/** What every message names: where the server is and which model was asked for. */
export interface ErrorContext {
  baseUrl: string;
  model: string;
  /** Only so it can be cut out of anything a server echoes back; it is never put in a message. */
  apiKey: string | null;
  /** Retries that came before the error. */
  maxRetries: number;
  /** How long the server had to start answering, for the message when it did not. */
  firstByteTimeoutMs?: number;
}

const SERVER_MESSAGE_LIMIT = 200;

/**
 * How servers say that they, or the model loaded in them, cannot do native tool calling:
 * Ollama "qwen:4b does not support tools" (400); vLLM "\"auto\" tool choice requires
 * --enable-auto-tool-choice and --tool-call-parser to be set" (400); llama.cpp "tools param requires
 * --jinja flag" (400, 500 in some versions); OpenAI "tools is not supported in this model" (400);
 * Azure "Functions are not supported for this API version or this model version" (400); Gemini "Tool
 * use with function calling is unsupported" (400); and 501 Not Implemented from smaller servers.
 */
const TOOLS_UNSUPPORTED_PATTERNS = [
  /\b(?:does not|doesn't|do not|don't|cannot|can't) support (?:native )?(?:tools?|tool[ _-]?(?:use|calls?|calling)|functions?|function[ _-]?(?:calls?|calling))\b/i,
  /\b(?:tools?|tool[ _-]?(?:use|calls?|calling|choice)|functions|function[ _-]?calling)\b[^.]{0,60}\b(?:not supported|unsupported|not enabled|not available)\b/i,
  /--enable-auto-tool-choice|tools? param(?:eter)? requires --jinja/i,
];
const TOOLS_UNSUPPORTED_STATUSES = new Set([400, 404, 422, 500, 501]);

/**
 * How servers say a request does not fit the model's context window: OpenAI, Azure, Groq and DeepSeek
 * (code `context_length_exceeded`, "This model's maximum context length is 8192 tokens. However, your
 * messages resulted in …"), OpenRouter ("This endpoint's maximum context length is …"), vLLM ("… longer
 * than the maximum model length of 4096", "Input prompt (5000 tokens) is too long and exceeds limit of
 * 4096"), llama.cpp ("the request exceeds the available context size, try increasing it", type
 * `exceed_context_size_error`), LM Studio ("… the model is loaded with context length of only 4096
 * tokens, which is not enough"), Ollama ("prompt too long; exceeded max context length by 120 tokens"),
 * Anthropic's compatible endpoint ("prompt is too long: 210000 tokens > 200000 maximum"), Gemini ("The
 * input token count (40000) exceeds the maximum number of tokens allowed (32768)") and Mistral ("Prompt
 * contains 40000 tokens … too large for model with 32768 maximum context length").
 */
const CONTEXT_EXCEEDED_PATTERNS = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /exceeds? (?:the )?(?:available )?context (?:size|length|window)/i,
  /exceed_context_size/i,
  /(?:longer|larger) than the maximum (?:model|context) length/i,
  /is too long and exceeds limit/i,
  /loaded with (?:a )?context length of only/i,
  /(?:prompt|input|request) (?:is )?too (?:long|large)/i,
  /exceeded max context length/i,
  /input token count .* exceeds the maximum/i,
  /context window (?:is )?(?:full|exceeded)/i,
];

/** The window a context error names, when it names one: "maximum context length is 8192", "… of only 4096 tokens", "(32768)", "> 200000 maximum". */
const CONTEXT_LIMIT_PATTERNS = [
  /maximum context length (?:is|of) (\d+)/i,
  /maximum (?:model|context) length of (\d+)/i,
  /exceeds limit of (\d+)/i,
  /context length of only (\d+)/i,
  /maximum number of tokens allowed \((\d+)\)/i,
  /> (\d+) maximum/i,
  /with (\d+) maximum context length/i,
  /n_ctx(?:_slot)?[ =:]+(\d+)/i,
];

/**
 * A limit of the account rather than of the model: Groq answers a request over its tokens-per-minute
 * limit with 413 "Request too large for model … on tokens per minute (TPM)", code `rate_limit_exceeded`.
 */
const RATE_LIMIT_WORDS = /rate[_ ]limit|per minute|per day|\b(?:TPM|RPM|TPD|RPD)\b/i;

export function saysRateLimited(words: string, code?: unknown): boolean {
  return code === 'rate_limit_exceeded' || RATE_LIMIT_WORDS.test(words);
}

export function saysContextExceeded(words: string, code?: unknown): boolean {
  if (saysRateLimited(words, code)) return false;
  return code === 'context_length_exceeded' || CONTEXT_EXCEEDED_PATTERNS.some((pattern) => pattern.test(words));
}

/** The account has no credit or quota left: OpenAI's 429 `insufficient_quota`, and 402 Payment Required (OpenRouter, DeepSeek). */
export function saysOutOfQuota(status: number | undefined, words: string, code?: unknown): boolean {
  return status === 402 || code === 'insufficient_quota' || /insufficient[_ ](?:quota|balance|credits?)|exceeded your current quota/i.test(words);
}

export function contextLimitIn(words: string): number | undefined {
  for (const pattern of CONTEXT_LIMIT_PATTERNS) {
    const tokens = Number(pattern.exec(words)?.[1]);
    if (Number.isSafeInteger(tokens) && tokens > 0) return tokens;
  }
  return undefined;
}

function contextExceededError(url: string, words: string, status?: number): LlmError {
  const limit = contextLimitIn(words);
  const window = limit === undefined ? "the model's context window" : `the model's context window of ${limit} tokens`;
  return new LlmError(
    'context-exceeded',
    `The request did not fit ${window} at ${url} (${status === undefined ? words : statusWith(status, words)}). ` +
      'Set the context window in Settings to what the server runs with, or raise the server\'s context length.',
    status,
    limit,
  );
}

/** A base URL fit to show: without any user name or password it may carry. */
export function shownUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.username === '' && url.password === '') return baseUrl;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return baseUrl;
  }
}

/** The server's own words in an error answer, trimmed to one short line with no key in it. */
function serverWords(error: APIError, apiKey: string | null): string {
  const body: unknown = error.error;
  let words: string;
  if (typeof body === 'string') words = body;
  else if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') words = body.message;
  else words = error.message.replace(/^\d{3} /, '').replace(/^status code \(no body\)$/, '');
  return shownWords(words, apiKey);
}

function shownWords(words: string, apiKey: string | null): string {
  const line = withoutSecrets(words, apiKey).replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return line.length > SERVER_MESSAGE_LIMIT ? `${line.slice(0, SERVER_MESSAGE_LIMIT)}…` : line;
}

/** Words fit to show: the API key, anything shaped like one, and the user name and password of any URL cut out. */
function withoutSecrets(words: string, apiKey: string | null): string {
  const keyless = apiKey ? words.split(apiKey).join('[key]') : words;
  return keyless.replace(/\bsk-[\w*-]{4,}/g, '[key]').replace(/\b([a-z][\w+.-]*:\/\/)[^\s/?#@]*@/gi, '$1');
}

function statusWith(status: number, words: string): string {
  return words === '' ? `HTTP ${status}` : `HTTP ${status}: ${words}`;
}

function afterRetries(maxRetries: number): string {
  return maxRetries > 0 ? ` after ${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'}` : '';
}

export function saysToolsUnsupported(words: string): boolean {
  return TOOLS_UNSUPPORTED_PATTERNS.some((pattern) => pattern.test(words));
}

/**
 * Why a connection failed: the error code of the first cause that has one (ECONNREFUSED, ENOTFOUND,
 * UND_ERR_…), else the innermost cause's own words (fetch's "bad port"), else null. Those words can
 * quote the request's URL, credentials and all ("Request cannot be constructed from a URL that
 * includes credentials: …"), so secrets are cut out of them.
 */
function connectionReason(error: unknown, apiKey: string | null): string | null {
  const words = connectionCode(error) ?? innermostMessage(error);
  return words === null ? null : withoutSecrets(words, apiKey);
}

function innermostMessage(error: unknown): string | null {
  let message: string | null = null;
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    message = cause.message;
    cause = cause.cause;
  }
  return message && message !== 'fetch failed' && message !== 'Connection error.' ? message : null;
}

/** The error code of the first cause that has one, if any. */
function connectionCode(error: unknown): string | null {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth++) {
    if ('code' in cause && typeof cause.code === 'string') return cause.code;
    if (cause instanceof AggregateError) {
      const inner = connectionCode(cause.errors[0]);
      if (inner) return inner;
    }
    cause = 'cause' in cause ? cause.cause : undefined;
  }
  return null;
}

export function cancelledError(context: ErrorContext): LlmError {
  return new LlmError('cancelled', `The call to the model server at ${shownUrl(context.baseUrl)} was cancelled.`);
}

function statusError(error: APIError & { status: number }, context: ErrorContext): LlmError {
  const url = shownUrl(context.baseUrl);
  const { status } = error;
  const words = serverWords(error, context.apiKey);
  if (status === 401) {
    return new LlmError(
      'auth',
      `The model server at ${url} rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.`,
      status,
    );
  }
  if (status === 403) {
    return new LlmError(
      'auth',
      `The model server at ${url} refused access to "${context.model}" (${statusWith(status, words)}). ` +
        'Check that your account or key may use this model and this server, e.g. its region and permissions.',
      status,
    );
  }
  if (saysOutOfQuota(status, words, error.code)) {
    return new LlmError(
      'quota',
      `The model server at ${url} says the account has no credit or quota left (${statusWith(status, words)}). Check your plan and billing with the provider, then try again.`,
      status,
    );
  }
  if ((status === 429 || status === 413) && saysRateLimited(words, error.code)) {
    return new LlmError(
      'rate-limited',
      `The model server at ${url} is still rate-limiting requests${afterRetries(context.maxRetries)} (${statusWith(status, words)}). ` +
        'Wait a minute and try again, or check the usage limits of your account.',
      status,
    );
  }
  if (status !== 429 && saysContextExceeded(words, error.code)) return contextExceededError(url, words, status);
  if (TOOLS_UNSUPPORTED_STATUSES.has(status) && saysToolsUnsupported(words)) {
    return new LlmError(
      'tools-unsupported',
      `The model "${context.model}" at ${url} cannot use native tool calling (${statusWith(status, words)}). ` +
        'Choose a model with tool support, or set the tool mode to "text" in Settings.',
      status,
    );
  }
  if (status === 404 && (error.code === 'model_not_found' || /model/i.test(words))) {
    return new LlmError(
      'model-not-found',
      `The model server at ${url} has no model named "${context.model}" (HTTP 404). Check the model name in Settings.`,
      status,
    );
  }
  if (status === 404) {
    return new LlmError(
      'server',
      `The model server at ${url} has no chat completions endpoint (${statusWith(status, words)}). ` +
        'Check the base URL: OpenAI-compatible servers usually serve it under /v1.',
      status,
    );
  }
  if (status === 429) {
    return new LlmError(
      'rate-limited',
      `The model server at ${url} is still rate-limiting requests${afterRetries(context.maxRetries)} (${statusWith(status, words)}). ` +
        'Wait a minute and try again, or check the usage limits of your account.',
      status,
    );
  }
  if (status === 400 || status === 422) {
    return new LlmError(
      'bad-request',
      `The model server at ${url} refused the request (${statusWith(status, words)}). ` +
        'Check the model name and the server settings, such as its context length.',
      status,
    );
  }
  return new LlmError(
    'server',
    `The model server at ${url} failed${afterRetries(context.maxRetries)} (${statusWith(status, words)}). ` +
      "Try again later, or check the server's logs.",
    status,
  );
}

/** An error the server reported in its stream (or in a body where a stream was expected): it gave up on the reply. */
export function reportedError(reported: ReportedError, context: ErrorContext): LlmError {
  const url = shownUrl(context.baseUrl);
  const words = shownWords(reported.message, context.apiKey);
  if (saysContextExceeded(reported.message, reported.code)) return contextExceededError(url, shownWords(reported.message, context.apiKey));
  if (saysToolsUnsupported(words)) {
    return new LlmError(
      'tools-unsupported',
      `The model "${context.model}" at ${url} cannot use native tool calling (${words}). ` +
        'Choose a model with tool support, or set the tool mode to "text" in Settings.',
    );
  }
  return new LlmError(
    'server',
    `The model server at ${url} reported an error in the middle of a reply (${words || 'no details'}). ` +
      "Try again, or check the server's logs.",
  );
}

/**
 * Turns anything the SDK throws into an LlmError whose message is one sentence naming the base URL and
 * what to check. `callerAborted` says whether the caller's signal caused it.
 */
export function llmErrorFrom(error: unknown, context: ErrorContext, callerAborted: boolean): LlmError {
  if (error instanceof LlmError) return error;
  if (callerAborted || error instanceof APIUserAbortError) return cancelledError(context);
  const url = shownUrl(context.baseUrl);
  if (error instanceof APIConnectionTimeoutError && context.firstByteTimeoutMs !== undefined) {
    return new LlmError(
      'stalled',
      `The model server at ${url} did not start answering within ${formatSeconds(context.firstByteTimeoutMs)}${attemptsNote(context.maxRetries + 1)}. ` +
        'Check that it is running and not overloaded; a model that is still loading may need longer.',
    );
  }
  if (error instanceof APIConnectionError) {
    const reason = error instanceof APIConnectionTimeoutError ? 'timed out' : (connectionReason(error, context.apiKey) ?? 'connection failed');
    return new LlmError(
      'unreachable',
      `Cannot reach the model server at ${url} (${reason}). Check the base URL and that the server is running.`,
    );
  }
  if (error instanceof APIError) {
    if (error.status !== undefined) return statusError(error as APIError & { status: number }, context);
    return reportedError({ message: serverWords(error, null), code: error.code, type: error.type }, context);
  }
  const detail = withoutSecrets(error instanceof Error ? error.message : String(error), context.apiKey);
  return new LlmError(
    'server',
    `The call to the model server at ${url} failed unexpectedly (${detail}). Check the base URL and the server's logs.`,
  );
}

/** The turn ended this way on its last attempt; `attempts` counts them all, the first included. */
export function streamFailureError(failure: AttemptFailure, context: ErrorContext & { attempts: number; idleTimeoutMs: number; queueLimitMs: number }): LlmError {
  const url = shownUrl(context.baseUrl);
  const times = attemptsNote(context.attempts);
  switch (failure.kind) {
    case 'reported':
      return reportedError(failure.error, context);
    case 'dropped':
      return new LlmError(
        'dropped',
        `The connection to the model server at ${url} dropped in the middle of a reply${times}. ` +
          "Check the network and the server's logs, then try again.",
      );
    case 'stalled':
      return new LlmError(
        'stalled',
        `The model server at ${url} sent nothing for ${formatSeconds(context.idleTimeoutMs)} in the middle of a reply${times}. ` +
          'Check that the server is not overloaded, then try again.',
      );
    case 'silent-start':
      return new LlmError(
        'stalled',
        `The model server at ${url} did not start answering within ${formatSeconds(context.firstByteTimeoutMs ?? context.idleTimeoutMs)}${times}. ` +
          'Check that it is running and not overloaded; a model that is still loading, or a very long prompt on a slow machine, may need longer.',
      );
    case 'queued-too-long':
      return new LlmError(
        'stalled',
        `The model server at ${url} kept the request queued for ${formatSeconds(context.queueLimitMs)} without starting the reply. ` +
          'The server is overloaded: try again later, or use another server.',
      );
    case 'truncated':
      return new LlmError(
        'truncated',
        `The model server at ${url} ended a reply without finishing it (no finish_reason)${times}. ` +
          "Check the server's logs, then try again.",
      );
    case 'no-choices':
      return new LlmError(
        'garbled',
        `The model server at ${url} streamed ${failure.chunks} ${failure.chunks === 1 ? 'chunk' : 'chunks'} without any reply in them (no choices)${times}. ` +
          'Check the model name and the server\'s logs; a content filter can also do this.',
      );
    case 'garbled':
      return new LlmError(
        'garbled',
        `The model server at ${url} sent a line in its stream that is not JSON (${JSON.stringify(withoutSecrets(failure.sample, context.apiKey))})${times}. ` +
          'Check that the base URL points at an OpenAI-compatible server, and its logs.',
      );
    case 'not-a-stream':
      return new LlmError(
        'garbled',
        `The model server at ${url} answered with ${describeBody(failure.contentType)}, not a model stream. ` +
          'Check the base URL: OpenAI-compatible servers usually serve under /v1, and a proxy may be showing its own page.',
      );
  }
}

function describeBody(contentType: string): string {
  if (/html/i.test(contentType)) return 'a web page (HTML)';
  return `"${contentType.split(';')[0]?.trim() ?? contentType}" content`;
}

function attemptsNote(attempts: number): string {
  return attempts <= 1 ? '' : `, ${attempts} times in a row`;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return seconds === 1 ? '1 second' : `${Number(seconds.toFixed(seconds < 1 ? 2 : 0))} seconds`;
}
