const clearLine = '\r\x1b[2K';

/**
 * Writes log lines to a stream and, when the stream is a terminal, keeps one status line under them,
 * rewritten in place. Log lines are printed above it (clear, print, redraw), so it never mixes with them.
 */
export class LiveLine {
  private current = '';
  private shown = false;
  private paused = 0;
  private stopped: boolean;

  constructor(
    private readonly stream: NodeJS.WritableStream & { columns?: number },
    /** False where the stream is not a terminal: then there is no status line, only log lines. */
    live: boolean,
  ) {
    this.stopped = !live;
  }

  get columns(): number {
    // A pseudo-terminal without a size reports 0 columns.
    return this.stream.columns || 80;
  }

  /** Replaces the status line. */
  set(text: string): void {
    if (text === this.current && this.shown) return;
    this.current = text;
    this.draw();
  }

  /** Prints a line (or several) above the status line. */
  log(text: string): void {
    this.erase();
    this.stream.write(`${text}\n`);
    this.draw();
  }

  /** Takes the status line away while `task` uses the terminal (a prompt, an editor), then puts it back. */
  async suspend<T>(task: () => Promise<T>): Promise<T> {
    this.paused += 1;
    this.erase();
    try {
      return await task();
    } finally {
      this.paused -= 1;
      this.draw();
    }
  }

  /** Removes the status line for good, e.g. before the summary streams to the same terminal. */
  stop(): void {
    this.erase();
    this.stopped = true;
  }

  private draw(): void {
    if (this.stopped || this.paused > 0 || this.current === '') return;
    this.stream.write(`${clearLine}${this.current}`);
    this.shown = true;
  }

  private erase(): void {
    if (!this.shown) return;
    this.stream.write(clearLine);
    this.shown = false;
  }
}
