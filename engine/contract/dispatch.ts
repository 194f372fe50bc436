import type { RequestChannel } from './channels.js';
import type { ParsedPayload, RequestResults, Result } from './requests.js';
import { validateRequest } from './validate.js';

/** One handler per request channel, receiving the validated payload. Missing one is a type error. */
export type RequestHandlers = {
  [C in RequestChannel]: (payload: ParsedPayload<C>) => Promise<RequestResults[C]>;
};

export type Dispatch = (channel: unknown, payload: unknown) => Promise<Result<unknown>>;

/**
 * Validates an untrusted request and runs its handler. Never throws: a bad request or a failing
 * handler becomes `{ ok: false, error }` with a sentence the UI can show.
 */
export function createDispatch(handlers: RequestHandlers): Dispatch {
  return async (channel, payload) => {
    const request = validateRequest(channel, payload);
    if (!request.ok) return request;
    const handler = handlers[request.value.channel] as (payload: unknown) => Promise<unknown>;
    try {
      return { ok: true, value: await handler(request.value.payload) };
    } catch (error) {
      return { ok: false, error: `${request.value.channel}: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
}
