/** Receives the text pieces of one attempt at a reply. */
export type AttemptText = (piece: string) => void;

/**
 * Passes streamed text to `onTextDelta` once across the attempts of one turn. The first attempt
 * delivers as it streams. A retried attempt that repeats what was already delivered stays silent until
 * it gets past it, then delivers only what is new. An attempt whose text differs from what was
 * delivered ends all delivery for the turn: a listener cannot take text back, and the reply's final
 * text is what counts anyway.
 */
export function createTextRelay(onTextDelta: ((text: string) => void) | undefined): { startAttempt(): AttemptText } {
  let delivered = '';
  let diverged = false;
  return {
    startAttempt() {
      let position = 0;
      return (piece) => {
        if (onTextDelta === undefined || diverged || piece === '') return;
        const start = position;
        position += piece.length;
        const repeated = delivered.slice(start, start + piece.length);
        if (!piece.startsWith(repeated)) {
          diverged = true;
          return;
        }
        const fresh = piece.slice(repeated.length);
        if (fresh === '') return;
        delivered += fresh;
        onTextDelta(fresh);
      };
    },
  };
}
