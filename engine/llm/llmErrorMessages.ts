import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { LlmError } from './llmTypes.js';
import { formatSeconds } from '../contract/units.js';
import { attemptsNote, shownUrl } from './messageWording.js';
import {
  connectionReason,
  contextLimitIn,
  saysContextExceeded,
  saysOutOfQuota,
  saysRateLimited,
  saysToolsUnsupported,
  serverWords,
  shownWords,
  TOOLS_UNSUPPORTED_STATUSES,
  withoutSecrets,
} from './serverErrorWords.js';
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

/** A request the server refused as too long again, after it was cut to fit the window its first refusal left. */
export interface RefusedAgain {
  baseUrl: string;
  /** The HTTP status of the second refusal; undefined when it came as an error in the stream. */
  status: number | undefined;
  /** About how many tokens the cut request held. */
  promptTokens: number;
  /** The window the run was using. */
  contextWindow: number;
  /** The window a refusal named, when one did. */
  serverLimit: number | undefined;
}

/** The run cannot go on: even the shrunken request was too long for the server. */
export function refusedTwiceError({ baseUrl, status, promptTokens, contextWindow, serverLimit }: RefusedAgain): LlmError {
  const count = (tokens: number) => tokens.toLocaleString('en-US');
  const how = status === undefined ? 'an error in its stream' : `HTTP ${status}`;
  const named = serverLimit === undefined ? '' : ` (the server named ${count(serverLimit)})`;
  return new LlmError(
    'context-exceeded',
    `The model server at ${shownUrl(baseUrl)} refused the request as too long twice (${how}), the second time cut to about ${count(promptTokens)} tokens ` +
      `for a context window of ${count(contextWindow)} tokens${named}: set the context window in Settings to what the server runs with, or raise the server's context length.`,
    status,
    serverLimit,
  );
}

function statusWith(status: number, words: string): string {
  return words === '' ? `HTTP ${status}` : `HTTP ${status}: ${words}`;
}

function afterRetries(maxRetries: number): string {
  return maxRetries > 0 ? ` after ${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'}` : '';
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
