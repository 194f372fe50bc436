import { diffArrays } from 'diff';

/** A run of the edit script: lines both sides share, or lines removed from the old side and added on the new. */
export type Block = { equal: number } | { removed: number; added: number };

export interface Alignment {
  blocks: Block[];
  /** The alignment gave up on a stretch (see maxEditLength): all of it is shown removed and added. */
  approximate: boolean;
}

/**
 * The blocks that turn the lines `left` into the lines `right`, each line given as its id (equal lines,
 * equal ids; ids run from 0 to `idCount` - 1), so jsdiff compares integers. The common start and end are
 * taken off first, and the rest is split at anchors (see `anchors`). jsdiff's Myers search of each
 * stretch is bounded by an edit length that keeps the work near 10^9 steps; past it the stretch is shown
 * replaced whole (`approximate`), always a correct, longer diff.
 */
export function alignLines(left: Int32Array, right: Int32Array, idCount: number): Alignment {
  let prefix = 0;
  while (prefix < left.length && prefix < right.length && left[prefix] === right[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < left.length - prefix && suffix < right.length - prefix && left[left.length - 1 - suffix] === right[right.length - 1 - suffix]) suffix += 1;
  const middleLeft = left.subarray(prefix, left.length - suffix);
  const middleRight = right.subarray(prefix, right.length - suffix);

  const blocks = new BlockList();
  let approximate = false;
  /** jsdiff aligns one stretch between anchors; past its bound the stretch is shown replaced whole. */
  const align = (leftFrom: number, leftTo: number, rightFrom: number, rightTo: number) => {
    if (leftFrom === leftTo || rightFrom === rightTo) return blocks.change(leftTo - leftFrom, rightTo - rightFrom);
    const [from, to] = [Array.from(middleLeft.subarray(leftFrom, leftTo)), Array.from(middleRight.subarray(rightFrom, rightTo))];
    const maxEditLength = Math.max(1_000, Math.min(50_000, Math.floor(8e8 / (from.length + to.length))));
    const changes = diffArrays(from, to, { maxEditLength });
    if (changes === undefined) {
      approximate = true;
      return blocks.change(from.length, to.length);
    }
    for (const change of changes) {
      if (change.added) blocks.change(0, change.count);
      else if (change.removed) blocks.change(change.count, 0);
      else blocks.equal(change.count);
    }
  };
  blocks.equal(prefix);
  let [leftAt, rightAt] = [0, 0];
  const { leftAnchors, rightAnchors } = anchors(middleLeft, middleRight, idCount);
  for (let index = 0; index < leftAnchors.length; index += 1) {
    const [leftAnchor, rightAnchor] = [leftAnchors[index]!, rightAnchors[index]!];
    align(leftAt, leftAnchor, rightAt, rightAnchor);
    blocks.equal(1);
    [leftAt, rightAt] = [leftAnchor + 1, rightAnchor + 1];
  }
  align(leftAt, middleLeft.length, rightAt, middleRight.length);
  blocks.equal(suffix);
  return { blocks: blocks.list, approximate };
}

/** Blocks in order, each run of equal lines (or of changes) merged into one block. */
class BlockList {
  readonly list: Block[] = [];

  equal(count: number): void {
    if (count === 0) return;
    const last = this.list.at(-1);
    if (last && 'equal' in last) last.equal += count;
    else this.list.push({ equal: count });
  }

  change(removed: number, added: number): void {
    if (removed + added === 0) return;
    const last = this.list.at(-1);
    if (last && 'removed' in last) {
      last.removed += removed;
      last.added += added;
    } else this.list.push({ removed, added });
  }
}

/**
 * Lines that occur once in each text, paired in the longest run that keeps their order on both sides
 * (patience diff's anchors, as git's --patience and --histogram start): they split a large diff into
 * small stretches between them, each aligned by jsdiff, so a big file with scattered edits costs about
 * its size instead of its size times the edits. Texts with few unique lines get few anchors and are
 * aligned by jsdiff more or less whole, as without them. Pairs are kept in typed arrays: a big file has
 * one per line.
 */
function anchors(left: Int32Array, right: Int32Array, idCount: number): { leftAnchors: Int32Array; rightAnchors: Int32Array } {
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
  const candidatesLeft = new Int32Array(right.length);
  const candidatesRight = new Int32Array(right.length);
  let candidates = 0;
  for (let index = 0; index < right.length; index += 1) {
    const id = right[index]!;
    if (leftCount[id] === 1 && rightCount[id] === 1) {
      candidatesLeft[candidates] = leftAt[id]!;
      candidatesRight[candidates] = index;
      candidates += 1;
    }
  }
  const chain = longestIncreasing(candidatesLeft.subarray(0, candidates));
  return { leftAnchors: chain.map((at) => candidatesLeft[at]!), rightAnchors: chain.map((at) => candidatesRight[at]!) };
}

/** The indexes of the longest subsequence of `values` that increases (patience sorting), in order. */
function longestIncreasing(values: Int32Array): Int32Array {
  const tails = new Int32Array(values.length);
  const previous = new Int32Array(values.length).fill(-1);
  let length = 0;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index]!;
    let [low, high] = [0, length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]!]! < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
    if (low === length) length += 1;
  }
  const chain = new Int32Array(length);
  for (let at = length === 0 ? -1 : tails[length - 1]!, slot = length - 1; at !== -1; at = previous[at]!, slot -= 1) chain[slot] = at;
  return chain;
}

/** The lines the blocks add and remove. */
export function changedLines(blocks: readonly Block[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const block of blocks) {
    if ('removed' in block) {
      added += block.added;
      removed += block.removed;
    }
  }
  return { added, removed };
}
