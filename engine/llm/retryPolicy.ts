import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { saysContextExceeded, saysOutOfQuota, saysToolsUnsupported } from './serverErrorWords.js';
import type { AttemptFailure } from './streamAttempt.js';

/** How a turn is tried again. */
export interface RetrySettings {
  /** Attempts after the first, for any failure worth retrying. */
  maxRetries: number;
  /** The first backoff; each later one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server that asks (Retry-After) for a longer wait than this is not waited for. */
  maxServerDelayMs: number;
}

export const defaultRetrySettings: RetrySettings = { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000, maxServerDelayMs: 120_000 };

/** Whether trying again may help, the reason to show while waiting, and how long the server asked to wait. */
export interface RetryVerdict {
  retry: boolean;
  reason: string;
  /** From Retry-After / retry-after-ms, when the server sent one. */
  serverDelayMs?: number;
}

/**
 * Which failures are worth another attempt: 408, 409, 429 and 5xx answers (but 501, and anything that
 * says the request is too long or tools are unsupported), connections that fail or time out before the
 * headers, and streams that drop, stall, end unfinished, carry no choices or lines that are not JSON, or
 * report an overload or server error in the stream. A server's `x-should-retry` header is obeyed.
 */
export function verdictOnError(error: unknown): RetryVerdict {
  if (error instanceof APIConnectionTimeoutError) return { retry: true, reason: 'no answer before the time limit' };
  if (error instanceof APIConnectionError) return { retry: true, reason: 'the connection failed' };
  if (!(error instanceof APIError) || error.status === undefined) return { retry: false, reason: '' };
  const status = error.status;
  const words = typeof error.message === 'string' ? error.message : '';
  const serverDelayMs = retryAfterMs(error.headers);
  const reason = `HTTP ${status}`;
  const told = error.headers?.get('x-should-retry');
  if (told === 'true' || told === 'false') return { retry: told === 'true', reason, ...(serverDelayMs === undefined ? {} : { serverDelayMs }) };
  if (saysOutOfQuota(status, words, error.code)) return { retry: false, reason };
  if (saysContextExceeded(words, error.code) || saysToolsUnsupported(words)) return { retry: false, reason };
  const retry = status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501);
  return { retry, reason, ...(serverDelayMs === undefined ? {} : { serverDelayMs }) };
}

export function verdictOnFailure(failure: AttemptFailure, idleTimeoutMs: number): RetryVerdict {
  switch (failure.kind) {
    case 'dropped':
      return { retry: true, reason: 'the connection dropped mid-reply' };
    case 'stalled':
      return { retry: true, reason: `nothing arrived for ${Math.round(idleTimeoutMs / 1000)} s` };
    case 'silent-start':
      return { retry: true, reason: 'the reply did not start in time' };
    case 'truncated':
      return { retry: true, reason: 'the reply ended unfinished' };
    case 'no-choices':
      return { retry: true, reason: 'the reply carried no choices' };
    case 'garbled':
      return { retry: true, reason: 'a line of the stream was not JSON' };
    case 'queued-too-long':
    case 'not-a-stream':
      return { retry: false, reason: '' };
    case 'reported': {
      const { message, code, type } = failure.error;
      if (saysContextExceeded(message, code) || saysToolsUnsupported(message)) return { retry: false, reason: '' };
      const retry = (typeof code === 'number' && (code === 429 || code >= 500)) || /overload|rate.?limit|timeout|unavailable|server.?error|internal/i.test(`${String(code)} ${String(type)} ${message}`);
      return { retry, reason: 'the server reported an error mid-reply' };
    }
  }
}

/** The wait before attempt `attempt + 1` (attempt counts from 1): the server's, else doubling backoff. */
export function retryDelayMs(attempt: number, settings: RetrySettings, serverDelayMs?: number): number {
  if (serverDelayMs !== undefined) return Math.max(0, serverDelayMs);
  return Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
}

/** Retry-After as seconds or an HTTP date, or OpenAI's retry-after-ms. */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis)) return millis;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
