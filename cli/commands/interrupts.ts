export interface Interrupts {
  /** Aborted at the first Ctrl-C (or SIGTERM). */
  readonly signal: AbortSignal;
  /** Counts as a Ctrl-C: what a question on the terminal calls when Ctrl-C is typed at it (raw mode, no signal). */
  interrupt(): void;
  dispose(): void;
}

export interface InterruptHandlers {
  /** The first: stop cleanly. */
  first: () => void;
  /** Any later one: the user does not want to wait. */
  again: () => void;
}

/** Ctrl-C and SIGTERM: the first cancels cleanly, the next stops at once. */
export function watchInterrupts({ first, again }: InterruptHandlers): Interrupts {
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) return again();
    controller.abort();
    first();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  return {
    signal: controller.signal,
    interrupt,
    dispose: () => {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    },
  };
}
