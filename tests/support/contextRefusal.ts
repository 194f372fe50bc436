import type { ScriptedTurn } from './fakeLlm/index.js';

/** A turn of the fake model that answers as OpenAI does a request longer than the window: 400, code `context_length_exceeded`. */
export function refusedAsTooLong(limit: number): ScriptedTurn {
  const body = {
    error: {
      message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${limit + 1808} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  };
  return { fault: { type: 'http-error', status: 400, body } };
}
