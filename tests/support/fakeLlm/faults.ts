import { forbidden, invalidApiKey, modelNotFound, rateLimited, serverError, type ErrorResponse } from './errors.js';
import type { WireChunk } from './chunks.js';
import { sseFrame } from './sse.js';
import type { Fault, FaultName } from './types.js';

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Where a faulty stream stops: `drop` destroys the socket, `stall` leaves it open and silent; `after-done`
 * sends every chunk and `[DONE]`, then ends the body `endAfterMs` later (never, when null).
 */
export type StreamCut = { type: 'drop' | 'stall'; afterChunks: number } | { type: 'after-done'; endAfterMs: number | null };

export function normaliseFault(fault: Fault | FaultName | undefined): Fault | null {
  if (fault === undefined) return null;
  return typeof fault === 'string' ? { type: fault } : fault;
}

/** The error answer for `http-*` faults; null for faults that shape the stream instead. */
export function httpFaultResponse(fault: Fault | null, model: string): ErrorResponse | null {
  switch (fault?.type) {
    case 'http-401':
      return invalidApiKey();
    case 'http-404-model':
      return modelNotFound(model);
    case 'http-429':
      return rateLimited(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
    case 'http-500':
      return serverError();
    case 'http-403':
      return forbidden();
    case 'http-error':
      return { status: fault.status, body: fault.body, ...(fault.headers ? { headers: fault.headers } : {}) };
    default:
      return null;
  }
}

/**
 * The SSE frames of a stream: each chunk as `data: …`, with an `error-frame` or `garbled-line` fault put
 * in after its chunks (the stream then ends as that server ends it), and every chunk emptied of its
 * choices under `no-choices`.
 */
export function streamFrames(chunks: readonly WireChunk[], fault: Fault | null): string[] {
  const frames = (fault?.type === 'no-choices' ? chunks.map((chunk) => ({ ...chunk, choices: [] })) : chunks).map((chunk) => sseFrame(JSON.stringify(chunk)));
  if (fault?.type === 'garbled-line') return [...frames.slice(0, fault.afterChunks ?? 1), sseFrame('{"id":"chatcmpl-fake","choices":[{"delta":{"content":"half'), ...frames.slice(fault.afterChunks ?? 1)];
  if (fault?.type !== 'error-frame') return frames;
  const message = fault.message ?? 'upstream model error: the backend crashed';
  const code = fault.code ?? 500;
  const head = frames.slice(0, fault.afterChunks ?? 1);
  switch (fault.shape) {
    case 'openai':
      return [...head, sseFrame(JSON.stringify({ error: { message, type: 'server_error', param: null, code } }))];
    case 'vllm-flat':
      return [...head, sseFrame(JSON.stringify({ object: 'error', message, type: 'BadRequestError', param: null, code }))];
    case 'llamacpp-field':
      return [...head, `error: ${JSON.stringify({ code, message, type: 'server_error' })}\n\n`];
    case 'openrouter':
      return [...head, sseFrame(JSON.stringify({ id: 'gen-fake', object: 'chat.completion.chunk', created: 0, model: 'fake', error: { code, message }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] }))];
    case 'event-error':
      return [...head, `event: error\ndata: ${JSON.stringify({ error: { message, code } })}\n\n`];
  }
}

export function streamCut(fault: Fault | null, chunkCount: number): StreamCut | null {
  if (fault?.type === 'drop-mid-stream') {
    return { type: 'drop', afterChunks: fault.afterChunks ?? Math.max(1, Math.floor(chunkCount / 2)) };
  }
  if (fault?.type === 'stall-after-headers') {
    return { type: 'stall', afterChunks: fault.afterChunks ?? 1 };
  }
  if (fault?.type === 'late-end') return { type: 'after-done', endAfterMs: fault.endAfterMs ?? 20 };
  if (fault?.type === 'open-after-done') return { type: 'after-done', endAfterMs: null };
  return null;
}

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Cuts arguments in half, the way a truncated generation leaves them; guaranteed not to parse. */
export function truncateArguments(argumentsJson: string): string {
  const truncated = argumentsJson.slice(0, Math.ceil(argumentsJson.length / 2));
  return isValidJson(truncated) ? `${truncated}{"` : truncated;
}
