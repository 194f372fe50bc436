import type { ErrorResponse } from './errors.js';

/**
 * What the fake does with the cache hints a request carries:
 * - `accept` (the default): takes them, as OpenAI does, and keeps them for the test to read;
 * - `reject-key`: a strict server that refuses fields it does not know: a body with `prompt_cache_key`
 *   gets NVIDIA NIM's 400 (`Validation: Unsupported parameter(s): \`prompt_cache_key\``);
 * - `anthropic-limits`: Claude through OpenRouter: more than 4 `cache_control` breakpoints, or one on an
 *   empty text, get Anthropic's 400 as OpenRouter passes it on.
 * Refusals consume no turn.
 */
export type CacheHintMode = 'accept' | 'reject-key' | 'anthropic-limits';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function contentParts(message: unknown): unknown[] {
  return isRecord(message) && Array.isArray(message['content']) ? message['content'] : [];
}

function hasBreakpoint(part: unknown): boolean {
  return isRecord(part) && part['cache_control'] !== undefined;
}

/** The indexes of the messages of a request body that carry a `cache_control` breakpoint in a content part. */
export function breakpointsIn(body: unknown): number[] {
  const messages = isRecord(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  return messages.flatMap((message, index) => (contentParts(message).some(hasBreakpoint) ? [index] : []));
}

function anthropicError(message: string): ErrorResponse {
  return {
    status: 400,
    body: { error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }), provider_name: 'Anthropic' } } },
  };
}

/** The 400 the fake answers to the request's hints in `mode`, or null when it takes them. */
export function refusalOfHints(body: unknown, mode: CacheHintMode): ErrorResponse | null {
  if (mode === 'reject-key' && isRecord(body) && 'prompt_cache_key' in body) {
    return { status: 400, body: { message: 'Validation: Unsupported parameter(s): `prompt_cache_key`', type: 'Bad Request', code: 400 } };
  }
  if (mode !== 'anthropic-limits' || !isRecord(body) || !Array.isArray(body['messages'])) return null;
  const parts = body['messages'].flatMap(contentParts).filter(hasBreakpoint);
  if (parts.length > 4) return anthropicError(`A maximum of 4 blocks with cache_control may be provided. Found ${parts.length}.`);
  if (parts.some((part) => isRecord(part) && part['type'] === 'text' && part['text'] === '')) return anthropicError('cache_control cannot be set for empty text blocks');
  return null;
}
