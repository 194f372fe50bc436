import { wantsColour, writeStyled, type StyledLine } from './diffText.js';
import { ownSequences, type ShownStream } from './shownStream.js';
import { visibleLine } from './visibleText.js';

/**
 * Writes log lines to a stream and, when the stream is a terminal, keeps one status line under them,
 * rewritten in place. Log lines are printed above it (clear, print, redraw), so it never mixes with them.
 * Its own cursor moves are the only control sequences it writes: the text goes out visible (ShownStream).
 */
export class LiveLine {
  private current = '';
  private shown = false;
  private paused = 0;
  private stopped: boolean;

  constructor(
    private readonly stream: ShownStream,
    /** False where the stream is not a terminal: then there is no status line, only log lines. */
    live: boolean,
  ) {
    this.stopped = !live;
  }

  get columns(): number {
    // A pseudo-terminal without a size reports 0 columns.
    return this.stream.columns ?? 80;
  }

  /** Replaces the status line; anything that would leave its line (a line feed, a CR) is shown instead. */
  set(text: string): void {
    const line = visibleLine(text);
    if (line === this.current && this.shown) return;
    this.current = line;
    this.draw();
  }

  /** Prints a line (or several) above the status line. */
  log(text: string): void {
    this.erase();
    this.stream.text(`${text}\n`);
    this.draw();
  }

  /** Prints coloured lines (a diff) above the status line; colour only on a terminal without NO_COLOR. */
  logStyled(lines: readonly StyledLine[]): void {
    this.erase();
    writeStyled(this.stream, lines, wantsColour(this.stream, process.env));
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
    this.stream.control(ownSequences.clearLine);
    this.stream.text(this.current);
    this.shown = true;
  }

  private erase(): void {
    if (!this.shown) return;
    this.stream.control(ownSequences.clearLine);
    this.shown = false;
  }
}
