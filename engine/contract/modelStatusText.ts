import type { EventOf } from './events.js';

/** A model-status event's own fields. */
export type ModelStatus = Omit<EventOf<'model-status'>, 'type' | 'seq' | 'runId' | 'phase'>;

/**
 * What a model call is doing, for a person, in the same words on every surface (the desktop status
 * line, the CLI's): null while it simply answers.
 */
export function describeModelStatus(status: ModelStatus): string | null {
  switch (status.state) {
    case 'waiting':
      return 'waiting for the model server';
    case 'queued':
      return 'the server is queueing the request';
    case 'thinking':
      return 'thinking…';
    case 'answering':
      return null;
    case 'retrying': {
      const seconds = Math.round((status.delayMs ?? 0) / 1000);
      const when = seconds > 0 ? `in ${seconds} s` : 'now';
      return `retrying ${when} (attempt ${status.attempt ?? '?'} of ${status.attempts ?? '?'}): ${status.reason ?? 'the call failed'}`;
    }
  }
}
