import { diffArrays } from 'diff';
import type { DiffHunk } from '../contract/changes.js';

export interface LineDiff {
  hunks: DiffHunk[];
  added: number;
  removed: number;
  /** The alignment gave up (see maxEditLength): every line between the common start and end is shown removed and added. */
  approximate: boolean;
}

/** A run of the edit script: lines both sides share, or lines removed from the old side and added on the new. */
type Block = { equal: number } | { removed: number; added: number };

export const noNewlineMarker = '\\ No newline at end of file';

/** Lines with their line break ("a\n"); the last has none when the text does not end with one. CRs stay in the line. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  // Slices of the text, not concatenations: a joined string is copied again when the line is hashed.
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

/**
 * A line diff of two texts, as unified-diff hunks with `context` unchanged lines around each change
 * (Infinity: one hunk with every line). jsdiff aligns the lines; they are compared as whole lines with
 * their line breaks, so a change of line ending or of the final line break is a change, as in git.
 */
export function diffLines(before: string, after: string, { context }: { context: number }): LineDiff {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const { blocks, approximate } = editScript(oldLines, newLines);
  let added = 0;
  let removed = 0;
  for (const block of blocks) {
    if ('removed' in block) {
      added += block.added;
      removed += block.removed;
    }
  }
  return { hunks: hunksOf(blocks, oldLines, newLines, context), added, removed, approximate };
}

/**
 * The blocks that turn `a` into `b`. Lines become numbers (equal lines, equal numbers) so jsdiff compares
 * integers; the common start and end are taken off first, and the rest is split at anchors (see
 * `anchors`). jsdiff's Myers search of each stretch is bounded by an edit length that keeps the work near
 * 10^9 steps; past it the stretch is shown replaced whole (`approximate`), always a correct, longer diff.
 */
function editScript(a: readonly string[], b: readonly string[]): { blocks: Block[]; approximate: boolean } {
  const ids = new Map<string, number>();
  const idsOf = (lines: readonly string[]) => {
    const out = new Int32Array(lines.length);
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index]!;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[index] = id;
    }
    return out;
  };
  const [left, right] = [idsOf(a), idsOf(b)];
  let prefix = 0;
  while (prefix < left.length && prefix < right.length && left[prefix] === right[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < left.length - prefix && suffix < right.length - prefix && left[left.length - 1 - suffix] === right[right.length - 1 - suffix]) suffix += 1;
  const middleLeft = left.subarray(prefix, left.length - suffix);
  const middleRight = right.subarray(prefix, right.length - suffix);

  const blocks: Block[] = [];
  const push = (block: Block) => {
    const last = blocks.at(-1);
    if ('equal' in block) {
      if (block.equal === 0) return;
      if (last && 'equal' in last) last.equal += block.equal;
      else blocks.push(block);
    } else {
      if (block.removed + block.added === 0) return;
      if (last && 'removed' in last) {
        last.removed += block.removed;
        last.added += block.added;
      } else blocks.push(block);
    }
  };
  let approximate = false;
  /** jsdiff aligns one stretch between anchors; past its bound the stretch is shown replaced whole. */
  const align = (from: Int32Array, to: Int32Array) => {
    if (from.length === 0 || to.length === 0) return push({ removed: from.length, added: to.length });
    const maxEditLength = Math.max(1_000, Math.min(50_000, Math.floor(8e8 / (from.length + to.length))));
    const changes = diffArrays(Array.from(from), Array.from(to), { maxEditLength });
    if (changes === undefined) {
      approximate = true;
      return push({ removed: from.length, added: to.length });
    }
    for (const change of changes) {
      if (change.added) push({ removed: 0, added: change.count });
      else if (change.removed) push({ removed: change.count, added: 0 });
      else push({ equal: change.count });
    }
  };
  push({ equal: prefix });
  let [leftAt, rightAt] = [0, 0];
  for (const [leftAnchor, rightAnchor] of anchors(middleLeft, middleRight, ids.size)) {
    align(middleLeft.subarray(leftAt, leftAnchor), middleRight.subarray(rightAt, rightAnchor));
    push({ equal: 1 });
    [leftAt, rightAt] = [leftAnchor + 1, rightAnchor + 1];
  }
  align(middleLeft.subarray(leftAt), middleRight.subarray(rightAt));
  push({ equal: suffix });
  return { blocks, approximate };
}

/**
 * Lines that occur once in each text, paired in the longest run that keeps their order on both sides
 * (patience diff's anchors, as git's --patience and --histogram start): they split a large diff into
 * small stretches between them, each aligned by jsdiff, so a big file with scattered edits costs about
 * its size instead of its size times the edits. Texts with few unique lines get few anchors and are
 * aligned by jsdiff more or less whole, as without them.
 */
function anchors(left: Int32Array, right: Int32Array, idCount: number): [number, number][] {
  // Ids are dense (0 … idCount-1), so counts by id are arrays, not maps.
  const leftCount = new Int32Array(idCount);
  const rightCount = new Int32Array(idCount);
  const leftAt = new Int32Array(idCount);
  for (let index = 0; index < left.length; index += 1) {
    const id = left[index]!;
    if (leftCount[id] === 0) leftAt[id] = index;
    leftCount[id] = leftCount[id]! + 1;
  }
  for (let index = 0; index < right.length; index += 1) rightCount[right[index]!] = rightCount[right[index]!]! + 1;
  const candidates: [number, number][] = [];
  for (let index = 0; index < right.length; index += 1) {
    const id = right[index]!;
    if (leftCount[id] === 1 && rightCount[id] === 1) candidates.push([leftAt[id]!, index]);
  }
  return longestIncreasing(candidates);
}

/** The longest subsequence of pairs (in order of their second member) whose first members increase too. */
function longestIncreasing(pairs: readonly [number, number][]): [number, number][] {
  const tails: number[] = [];
  const previous = new Array<number>(pairs.length).fill(-1);
  pairs.forEach(([left], index) => {
    let [low, high] = [0, tails.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((pairs[tails[middle]!]?.[0] ?? 0) < left) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const chain: [number, number][] = [];
  for (let at = tails.at(-1) ?? -1; at !== -1; at = previous[at]!) chain.push(pairs[at]!);
  return chain.reverse();
}

/** Groups the blocks into hunks: changes closer than twice the context share one hunk, as in diff -u and git. */
function hunksOf(blocks: readonly Block[], a: readonly string[], b: readonly string[], context: number): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let oldAt = 0;
  let newAt = 0;
  let current: { oldFrom: number; newFrom: number; lines: string[] } | null = null;
  const close = () => {
    if (!current) return;
    const { oldFrom, newFrom, lines } = current;
    let oldCount = 0;
    let newCount = 0;
    for (const line of lines) {
      if (line[0] === ' ' || line[0] === '-') oldCount += 1;
      if (line[0] === ' ' || line[0] === '+') newCount += 1;
    }
    hunks.push({ oldStart: oldFrom + 1, oldLines: oldCount, newStart: newFrom + 1, newLines: newCount, lines });
    current = null;
  };
  blocks.forEach((block, index) => {
    if ('equal' in block) {
      if (current) {
        const isLast = index === blocks.length - 1;
        const kept = !isLast && block.equal <= 2 * context ? block.equal : Math.min(block.equal, context);
        addLines(current.lines, ' ', a, oldAt, kept);
        if (kept < block.equal || isLast) close();
      }
      oldAt += block.equal;
      newAt += block.equal;
      return;
    }
    if (!current) {
      const leading = Math.min(context, oldAt, newAt);
      current = { oldFrom: oldAt - leading, newFrom: newAt - leading, lines: [] };
      addLines(current.lines, ' ', a, oldAt - leading, leading);
    }
    addLines(current.lines, '-', a, oldAt, block.removed);
    addLines(current.lines, '+', b, newAt, block.added);
    oldAt += block.removed;
    newAt += block.added;
  });
  close();
  return hunks;
}

function addLines(into: string[], marker: ' ' | '-' | '+', lines: readonly string[], from: number, count: number): void {
  for (let index = from; index < from + count; index += 1) {
    const line = lines[index] ?? '';
    if (line.endsWith('\n')) into.push(marker + line.slice(0, -1));
    else {
      into.push(marker + line);
      into.push(noNewlineMarker);
    }
  }
}
