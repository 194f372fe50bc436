/** How one wait ends when nobody answers, and what to say when it starts and when it ends. */
export interface WaitOptions<Outcome> {
  timeoutMs: number;
  /** Aborted when the run is cancelled: the wait ends with `withdrawn`. */
  signal: AbortSignal;
  expired: Outcome;
  withdrawn: Outcome;
  /** Called once the request can be answered (it announces it). */
  announce: () => void;
  /** Called once with how the request was settled, before its wait resolves. */
  settled: (outcome: Outcome) => void;
}

interface Open<Entry, Outcome> {
  entry: Entry;
  settle: (outcome: Outcome) => void;
}

/**
 * The requests of a run that wait for the user — approvals, questions — each settled exactly once: by the
 * user's answer, by its timeout, or withdrawn when the run is cancelled. What each announced stays
 * readable while it waits (for a reloaded page), and how it was settled is remembered, so a late second
 * answer can be refused saying why.
 */
export class WaitingAnswers<Entry, Outcome> {
  private readonly open = new Map<string, Open<Entry, Outcome>>();
  private readonly settled = new Map<string, Outcome>();

  /** Waits for the request `requestId` to be settled; the signal must not be aborted yet. */
  wait(requestId: string, entry: Entry, options: WaitOptions<Outcome>): Promise<Outcome> {
    const { timeoutMs, signal } = options;
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => settle(options.expired), timeoutMs);
      const onAbort = () => settle(options.withdrawn);
      const settle = (outcome: Outcome) => {
        if (!this.open.delete(requestId)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.settled.set(requestId, outcome);
        options.settled(outcome);
        resolve(outcome);
      };
      this.open.set(requestId, { entry, settle });
      signal.addEventListener('abort', onAbort, { once: true });
      options.announce();
    });
  }

  /** The request still waiting under this id, or undefined. */
  entry(requestId: string): Entry | undefined {
    return this.open.get(requestId)?.entry;
  }

  /** How an earlier request was settled, or undefined when none was under this id. */
  earlier(requestId: string): Outcome | undefined {
    return this.settled.get(requestId);
  }

  /** Settles a waiting request; false when none waits under this id. */
  settle(requestId: string, outcome: Outcome): boolean {
    const open = this.open.get(requestId);
    open?.settle(outcome);
    return open !== undefined;
  }

  /** The requests waiting now, oldest first. */
  entries(): Entry[] {
    return [...this.open.values()].map((open) => open.entry);
  }
}
