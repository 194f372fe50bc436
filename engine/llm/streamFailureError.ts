import { reportedError, type ErrorContext } from './llmErrorMessages.js';
import { LlmError } from './llmTypes.js';
import { formatSeconds } from '../contract/units.js';
import { attemptsNote, notTheApiMessage, shownUrl } from './messageWording.js';
import { withoutSecrets } from './serverErrorWords.js';
import type { AttemptFailure } from './streamAttempt.js';

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
      return new LlmError('garbled', notTheApiMessage({ baseUrl: context.baseUrl, contentType: failure.contentType, expected: 'a model stream' }));
  }
}
