const defaultMaxLines = 20;
const defaultMaxChars = 4000;

/**
 * The last lines a server wrote to stderr, kept to tell the user why it failed. Bounded in lines and
 * characters, so a server that logs without end costs nothing; a line longer than the bound keeps its end.
 */
export class StderrTail {
  private lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = defaultMaxLines,
    private readonly maxChars = defaultMaxChars,
  ) {}

  write(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(-this.maxChars);
    for (const line of parts) if (line.trim() !== '') this.lines.push(line.slice(-this.maxChars));
    if (this.lines.length > this.maxLines) this.lines = this.lines.slice(-this.maxLines);
  }

  /** The tail, oldest line first, within the character bound; empty when the server wrote nothing. */
  text(): string {
    const all = [...this.lines, ...(this.partial.trim() ? [this.partial] : [])];
    let kept = '';
    for (let index = all.length - 1; index >= 0; index -= 1) {
      const next = kept ? `${all[index]}\n${kept}` : (all[index] ?? '');
      if (next.length > this.maxChars) break;
      kept = next;
    }
    return kept;
  }

  /** The last line written, for a one-line report. */
  lastLine(): string {
    return this.text().split('\n').at(-1) ?? '';
  }
}
