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
const maxQueryChars = 64;

/** How well `query` matches `path`, or null when it does not (an empty query matches everything with score 0). */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
  const wanted = query.slice(0, maxQueryChars).toLowerCase().replace(/\s+/g, '');
  if (wanted === '') return { score: 0, positions: [] };
  const text = path.slice(0, maxScoredChars);
  const lower = text.toLowerCase();
  if (!isSubsequence(wanted, lower)) return null;
  const nameStart = text.lastIndexOf('/') + 1;
  const { score, positions } = bestAlignment(wanted, text, lower, nameStart);
  const name = lower.slice(nameStart);
  const nameBonus = name === wanted ? 30 : name.startsWith(wanted) ? 15 : 0;
  return { score: score + nameBonus - text.length * 0.05, positions };
}

/** Ranks paths by how well they match, best first, ties to the shorter then the alphabetically first. */
export function rankPaths<T extends { path: string }>(query: string, entries: readonly T[], limit: number): (T & FuzzyMatch)[] {
  // Only the best `limit` are kept, in order, so a big folder is never sorted whole.
  const best: (T & FuzzyMatch)[] = [];
  for (const entry of entries) {
    const match = fuzzyMatch(query, entry.path);
    if (!match) continue;
    if (best.length >= limit && ranksBefore(best[best.length - 1]!, { path: entry.path, score: match.score })) continue;
    const candidate = { ...entry, ...match };
    let at = best.length;
    while (at > 0 && ranksBefore(candidate, best[at - 1]!)) at -= 1;
    best.splice(at, 0, candidate);
    if (best.length > limit) best.pop();
  }
  return best;
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

/** Scratch rows reused from one match to the next: ranking a big folder allocates nothing per path. */
let previousRow = new Float64Array(maxScoredChars);
let currentRow = new Float64Array(maxScoredChars);
const backPointers = new Int32Array(maxQueryChars * maxScoredChars);

/**
 * The best placement of the query's characters in the path: for each query character and path position,
 * the best score ending there, either right after the previous character (a run) or after a gap.
 * O(query × path), with back-pointers to recover which characters matched.
 */
function bestAlignment(wanted: string, text: string, lower: string, nameStart: number): FuzzyMatch {
  const n = lower.length;
  const none = -Infinity;
  for (let i = 0; i < wanted.length; i += 1) {
    const char = wanted.charCodeAt(i);
    const row = i * n;
    let bestBefore = none;
    let bestBeforeAt = -1;
    for (let j = 0; j < n; j += 1) {
      // bestBefore covers the previous row's 0 .. j-2: a gap of at least one character.
      if (i > 0 && j >= 2 && previousRow[j - 2]! > bestBefore) {
        bestBefore = previousRow[j - 2]!;
        bestBeforeAt = j - 2;
      }
      currentRow[j] = none;
      backPointers[row + j] = -1;
      if (lower.charCodeAt(j) !== char) continue;
      const bonus = charBonus(text, j, nameStart);
      if (i === 0) {
        currentRow[j] = bonus - (j > 0 ? gapPenalty : 0);
        continue;
      }
      const run = j >= 1 ? previousRow[j - 1]! + consecutiveBonus : none;
      const gap = bestBefore - gapPenalty;
      if (run === none && gap === none) continue;
      if (run >= gap) {
        currentRow[j] = run + bonus;
        backPointers[row + j] = j - 1;
      } else {
        currentRow[j] = gap + bonus;
        backPointers[row + j] = bestBeforeAt;
      }
    }
    [previousRow, currentRow] = [currentRow, previousRow];
  }
  let end = -1;
  let score = none;
  for (let j = 0; j < n; j += 1) {
    if (previousRow[j]! > score) {
      score = previousRow[j]!;
      end = j;
    }
  }
  const positions: number[] = [];
  for (let i = wanted.length - 1, at = end; i >= 0 && at >= 0; i -= 1) {
    positions.unshift(at);
    at = backPointers[i * n + at] ?? -1;
  }
  return { score, positions };
}
