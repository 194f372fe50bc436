import { invalidApiKey, modelNotFound, rateLimited, serverError, type ErrorResponse } from './errors.js';
import type { Fault, FaultName } from './types.js';

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** Where a faulty stream stops: `drop` destroys the socket, `stall` leaves it open and silent. */
export interface StreamCut {
  type: 'drop' | 'stall';
  afterChunks: number;
}

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
    default:
      return null;
  }
}

export function streamCut(fault: Fault | null, chunkCount: number): StreamCut | null {
  if (fault?.type === 'drop-mid-stream') {
    return { type: 'drop', afterChunks: fault.afterChunks ?? Math.max(1, Math.floor(chunkCount / 2)) };
  }
  if (fault?.type === 'stall-after-headers') {
    return { type: 'stall', afterChunks: fault.afterChunks ?? 1 };
  }
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
