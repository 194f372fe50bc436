/** The self-enforced limits of one agent loop (seed 001): wall clock, and tool errors in a row and in all. */
export interface LoopLimits {
  /** Wall-clock time for the whole loop, tool calls included; the time a question waits for the user's answer is not counted. */
  timeoutMs: number;
  maxConsecutiveErrors: number;
  maxTotalErrors: number;
}

export const defaultLoopLimits: LoopLimits = {
  timeoutMs: 20 * 60_000,
  maxConsecutiveErrors: 3,
  maxTotalErrors: 5,
};

/** Counts failed tool calls (and malformed text-protocol blocks) against the loop's error limits. */
export class ErrorBudget {
  private consecutive = 0;
  private total = 0;
  private lastProblem = '';

  constructor(private readonly limits: Pick<LoopLimits, 'maxConsecutiveErrors' | 'maxTotalErrors'>) {}

  record(ok: boolean, problem: string): void {
    if (ok) {
      this.consecutive = 0;
      return;
    }
    this.consecutive += 1;
    this.total += 1;
    this.lastProblem = problem;
  }

  /** Why the loop must stop, or null while it may go on. */
  exhausted(): string | null {
    const last = this.lastProblem ? ` The last one: ${firstLine(this.lastProblem)}` : '';
    if (this.consecutive >= this.limits.maxConsecutiveErrors) return `${this.consecutive} tool calls in a row failed.${last}`;
    if (this.total >= this.limits.maxTotalErrors) return `${this.total} tool calls failed in this step.${last}`;
    return null;
  }
}

export function firstLine(text: string, max = 200): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
