/**
 * Fuzzy matching of a typed query against a folder-relative path, as the composer's `@` completion ranks
 * them: the query's characters must appear in the path in order (case does not matter), and a match
 * scores higher where they run together, start a name or a word, and fall in the file's own name. Kept
 * free of imports so the engine ranks with it and the page can show which characters matched.
 */

export interface FuzzyMatch {
  score: number;
  /** Indexes in the path of the characters that matched, ascending. */
  positions: number[];
}

const separators = new Set(['/', '_', '-', '.', ' ']);
/** Paths and queries longer than this are matched on their first characters only (scoring is quadratic). */
const maxScoredChars = 512;
const maxQueryChars = 32;

/** How well `query` matches `path`, or null when it does not (an empty query matches everything with score 0). */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
  const wanted = lowerInPlace(query).replace(/\s+/g, '').slice(0, maxQueryChars);
  if (wanted === '') return { score: 0, positions: [] };
  const text = path.slice(0, maxScoredChars);
  const lower = lowerInPlace(text);
  if (!isSubsequence(wanted, lower)) return null;
  const nameStart = text.lastIndexOf('/') + 1;
  const { score, positions } = bestAlignment(wanted, text, lower, nameStart);
  const name = lower.slice(nameStart);
  const nameBonus = name === wanted ? 30 : name.startsWith(wanted) ? 15 : 0;
  return { score: score + nameBonus - text.length * 0.05, positions };
}

/**
 * What one placement of the query's characters (ascending positions in `path`) is worth before the name
 * and length terms: the sum that bestAlignment maximises. Exported for the exhaustive check in the tests.
 */
export function placementScore(path: string, positions: readonly number[]): number {
  const text = path.slice(0, maxScoredChars);
  const nameStart = text.lastIndexOf('/') + 1;
  let score = 0;
  positions.forEach((at, i) => {
    score += charBonus(text, at, nameStart);
    if (i === 0) score -= at > 0 ? gapPenalty : 0;
    else score += at === positions[i - 1]! + 1 ? consecutiveBonus : -gapPenalty;
  });
  return score;
}

/**
 * The text in lower case, character for character: a character whose lower case is longer (`İ` → `i̇`)
 * is kept as it is, so positions in the result are positions in the text.
 */
function lowerInPlace(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let kept = '';
  for (const char of text) {
    const small = char.toLowerCase();
    kept += small.length === char.length ? small : char;
  }
  return kept;
}

/** Ranks paths by how well they match, best first, ties to the shorter then the alphabetically first. */
export function rankPaths<T extends { path: string }>(query: string, entries: readonly T[], limit: number): (T & FuzzyMatch)[] {
  const ranking = new PathRanking<T>(query, limit);
  for (const entry of entries) ranking.add(entry);
  return ranking.best;
}

/**
 * The best `limit` matches seen so far, in order, so a big folder is never sorted whole; paths are added
 * one at a time, so a caller can rank a large listing in slices (engine/context/pathSearch.ts).
 */
export class PathRanking<T extends { path: string }> {
  readonly best: (T & FuzzyMatch)[] = [];

  constructor(
    private readonly query: string,
    private readonly limit: number,
  ) {}

  add(entry: T): void {
    const { best, limit } = this;
    const match = fuzzyMatch(this.query, entry.path);
    if (!match) return;
    if (best.length >= limit && ranksBefore(best[best.length - 1]!, { path: entry.path, score: match.score })) return;
    const candidate = { ...entry, ...match };
    let at = best.length;
    while (at > 0 && ranksBefore(candidate, best[at - 1]!)) at -= 1;
    best.splice(at, 0, candidate);
    if (best.length > limit) best.pop();
  }
}

function ranksBefore(a: { path: string; score: number }, b: { path: string; score: number }): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.path.length !== b.path.length) return a.path.length < b.path.length;
  return a.path < b.path;
}

function isSubsequence(wanted: string, lower: string): boolean {
  let at = 0;
  for (const char of wanted) {
    at = lower.indexOf(char, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

/** What matching the character at `index` is worth: more at the start of a name or a word, and inside the file's own name. */
function charBonus(text: string, index: number, nameStart: number): number {
  const previous = index === 0 ? '/' : text[index - 1] ?? '';
  const current = text[index] ?? '';
  let bonus = 1;
  if (previous === '/') bonus += 10;
  else if (separators.has(previous)) bonus += 8;
  else if (previous === previous.toLowerCase() && current !== current.toLowerCase()) bonus += 6; // camelCase hump
  if (index >= nameStart) bonus += 2;
  return bonus;
}

const consecutiveBonus = 5;
const gapPenalty = 1;

/**
 * Scratch space reused from one match to the next, so ranking a big folder allocates nothing per path.
 * Row i holds the positions of the path where the query's i-th character occurs, each with the best score
 * of a placement ending there and the index (in row i-1) it came from.
 */
const cellCapacity = maxQueryChars * maxScoredChars;
const cellAt = new Int32Array(cellCapacity);
const cellScore = new Float64Array(cellCapacity);
const cellFrom = new Int32Array(cellCapacity);
const rowStart = new Int32Array(maxQueryChars + 1);

/**
 * The best placement of the query's characters in the path: each character either right after the
 * previous one (a run, worth `consecutiveBonus`) or after a gap (costing `gapPenalty`), plus what each
 * matched character is worth (charBonus). A dynamic programme over only the positions where each query
 * character can stand — between its earliest (greedy from the left) and latest (greedy from the right)
 * place — so a typical path costs a few dozen cells, not query × path; ties go to the earliest placement.
 */
function bestAlignment(wanted: string, text: string, lower: string, nameStart: number): FuzzyMatch {
  const q = wanted.length;
  const none = -Infinity;
  // The latest place each query character can take and still leave room for the rest.
  const latest = new Int32Array(q);
  for (let i = q - 1, at = lower.length; i >= 0; i -= 1) {
    at = lower.lastIndexOf(wanted[i]!, at - 1);
    latest[i] = at;
  }
  let earliest = -1;
  let cells = 0;
  for (let i = 0; i < q; i += 1) {
    rowStart[i] = cells;
    const char = wanted[i]!;
    // Row i-1, walked once alongside row i: `before` is the best cell at least two places back (a gap).
    const previousEnd = i === 0 ? 0 : rowStart[i]!;
    let previous = i === 0 ? 0 : rowStart[i - 1]!;
    let before = none;
    let beforeFrom = -1;
    earliest = lower.indexOf(char, earliest + 1);
    for (let at = earliest; at >= 0 && at <= latest[i]!; at = lower.indexOf(char, at + 1)) {
      const bonus = charBonus(text, at, nameStart);
      cellAt[cells] = at;
      cellFrom[cells] = -1;
      if (i === 0) {
        cellScore[cells] = bonus - (at > 0 ? gapPenalty : 0);
        cells += 1;
        continue;
      }
      for (; previous < previousEnd && cellAt[previous]! <= at - 2; previous += 1) {
        if (cellScore[previous]! > before) {
          before = cellScore[previous]!;
          beforeFrom = previous;
        }
      }
      const run = previous < previousEnd && cellAt[previous] === at - 1 ? cellScore[previous]! + consecutiveBonus : none;
      const gap = before - gapPenalty;
      if (run === none && gap === none) cellScore[cells] = none;
      else if (run >= gap) {
        cellScore[cells] = run + bonus;
        cellFrom[cells] = previous;
      } else {
        cellScore[cells] = gap + bonus;
        cellFrom[cells] = beforeFrom;
      }
      cells += 1;
    }
  }
  rowStart[q] = cells;
  let end = -1;
  let score = none;
  for (let cell = rowStart[q - 1]!; cell < cells; cell += 1) {
    if (cellScore[cell]! > score) {
      score = cellScore[cell]!;
      end = cell;
    }
  }
  const positions: number[] = new Array<number>(q);
  for (let i = q - 1, cell = end; i >= 0 && cell >= 0; i -= 1) {
    positions[i] = cellAt[cell]!;
    cell = cellFrom[cell]!;
  }
  return { score, positions };
}
