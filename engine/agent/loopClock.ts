/**
 * A loop's wall-clock limit that stands still while the loop waits for the user to answer a question:
 * the time a person takes to reply is not time the phase spent working.
 */
export class LoopClock {
  private remainingMs: number;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private pauses = 0;
  private disposed = false;

  constructor(timeoutMs: number, private readonly onTimeout: () => void) {
    this.remainingMs = timeoutMs;
    this.start();
  }

  /** Runs `wait` with the clock stopped; it runs on from where it stood once `wait` settles. */
  async whilePaused<T>(wait: () => Promise<T>): Promise<T> {
    this.pause();
    try {
      return await wait();
    } finally {
      this.resume();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.stop();
  }

  private pause(): void {
    this.pauses += 1;
    if (this.pauses > 1) return;
    this.stop();
    this.remainingMs = Math.max(0, this.remainingMs - (performance.now() - this.startedAt));
  }

  private resume(): void {
    this.pauses -= 1;
    if (this.pauses === 0 && !this.disposed) this.start();
  }

  private start(): void {
    this.startedAt = performance.now();
    this.timer = setTimeout(this.onTimeout, this.remainingMs);
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
