import type { BatchResult, FileMatches } from './matchMessages.js';

export interface SearchTally {
  /** Files with matches in search order; their lines add up to at most the limit. */
  files: FileMatches[];
  matches: number;
  searched: number;
  binary: number;
  unreadable: number;
}

/**
 * Batch results put back in search order as workers finish them, out of order. Only an unbroken run
 * of batches counts, so the first `limit` matches are the same whichever worker was quicker.
 */
export class OrderedResults {
  readonly tally: SearchTally = { files: [], matches: 0, searched: 0, binary: 0, unreadable: 0 };
  /** Resolves once `limit` matches are in. */
  readonly full: Promise<void>;
  private readonly early = new Map<number, BatchResult>();
  private next = 0;
  private markFull!: () => void;

  constructor(private readonly limit: number) {
    this.full = new Promise((resolve) => (this.markFull = resolve));
  }

  get isFull(): boolean {
    return this.tally.matches >= this.limit;
  }

  /** Takes the result of batch number `index` (0, 1, 2 … in search order). */
  add(index: number, result: BatchResult): void {
    this.early.set(index, result);
    for (let ready = this.early.get(this.next); ready && !this.isFull; ready = this.early.get(this.next)) {
      this.early.delete(this.next);
      this.next += 1;
      this.count(ready);
    }
    if (this.isFull) this.markFull();
  }

  private count(result: BatchResult): void {
    const { tally } = this;
    tally.searched += result.searched;
    tally.binary += result.binary;
    tally.unreadable += result.unreadable;
    for (const file of result.matches) {
      const room = this.limit - tally.matches;
      if (room <= 0) return;
      const taken = file.lines.length > room ? { path: file.path, lines: file.lines.slice(0, room), texts: file.texts.slice(0, room) } : file;
      tally.files.push(taken);
      tally.matches += taken.lines.length;
    }
  }
}
