import { alignLines, changedLines } from './alignLines.js';
import { lineWork } from './lineWork.js';

/** What a list of changes shows of a text file's change: its line counts, without the hunks. */
export interface LineCounts {
  added: number;
  removed: number;
  /** As LineDiff's: the alignment gave up on a stretch, shown removed and added whole. */
  approximate: boolean;
}

const newline = 10;

/**
 * The lines added and removed between two texts given as their UTF-8 bytes: the counts diffLines gives
 * for the same texts. Equal lines are equal bytes, so the common start and end are found by comparing
 * bytes, and only the lines between them are split, numbered (by a hash of their bytes) and aligned: a
 * long file with one line changed costs a comparison of its bytes and two lines, not two decoded texts
 * split and hashed whole.
 */
export function countLineChanges(before: Uint8Array, after: Uint8Array): LineCounts {
  const start = sharedStart(before, after);
  if (start === before.length && start === after.length) return { added: 0, removed: 0, approximate: false };
  const end = sharedEnd(before, after, start);
  const { left, right, idCount } = numberLines({ bytes: before, from: start, to: before.length - end }, { bytes: after, from: start, to: after.length - end });
  const { blocks, approximate } = alignLines(left, right, idCount);
  return { ...changedLines(blocks), approximate };
}

/** Where the lines both texts start with end: just after the last line break before their first differing byte. */
function sharedStart(a: Uint8Array, b: Uint8Array): number {
  const shorter = Math.min(a.length, b.length);
  let differs = 0;
  while (differs < shorter && a[differs] === b[differs]) differs += 1;
  if (differs === a.length && differs === b.length) return differs;
  let lineStart = differs;
  while (lineStart > 0 && a[lineStart - 1] !== newline) lineStart -= 1;
  return lineStart;
}

/**
 * The bytes of the whole lines both texts end with, after `start` on both sides. Equal bytes from the
 * end are whole equal lines from the first point that starts a line in both texts: `start`, or just
 * after a line break.
 */
function sharedEnd(a: Uint8Array, b: Uint8Array, start: number): number {
  const most = Math.min(a.length, b.length) - start;
  let same = 0;
  while (same < most && a[a.length - 1 - same] === b[b.length - 1 - same]) same += 1;
  const startsLine = (bytes: Uint8Array, at: number) => at === start || bytes[at - 1] === newline;
  if (same === 0 || (startsLine(a, a.length - same) && startsLine(b, b.length - same))) return same;
  const lineBreak = a.indexOf(newline, a.length - same);
  return lineBreak === -1 ? 0 : a.length - 1 - lineBreak;
}

interface Span {
  bytes: Uint8Array;
  from: number;
  to: number;
}

/**
 * Each line of the two spans as a number, equal lines equal numbers (dense, from 0), for alignLines.
 * One pass over each span's bytes hashes its lines (FNV-1a); a hash table then numbers them, equal
 * hashes checked byte by byte. Neither text is decoded or cut into strings, and every table is typed: a
 * big file has a line for every fifty bytes.
 */
function numberLines(left: Span, right: Span): { left: Int32Array; right: Int32Array; idCount: number } {
  const sides = [left, right];
  const hashed = [hashedLines(left), hashedLines(right)] as const;
  const lines = hashed[0].hashes.length + hashed[1].hashes.length;
  lineWork.linesNumbered += lines;
  let size = 16;
  while (size < lines * 2) size *= 2;
  // A slot holds a line's number (-1: free); each number's bytes are those of its first line.
  const slots = new Int32Array(size).fill(-1);
  const [firstSide, firstFrom, firstTo, firstHash] = [new Uint8Array(lines), new Int32Array(lines), new Int32Array(lines), new Int32Array(lines)];
  let idCount = 0;
  const numbered = (side: 0 | 1): Int32Array => {
    const { bytes, from } = sides[side]!;
    const { hashes, ends } = hashed[side];
    const ids = new Int32Array(hashes.length);
    for (let index = 0, lineFrom = from; index < hashes.length; index += 1) {
      const [hash, lineTo] = [hashes[index]!, ends[index]!];
      let slot = hash & (size - 1);
      let id = slots[slot]!;
      while (id !== -1 && !(firstHash[id] === hash && sameBytes(sides[firstSide[id]!]!.bytes, firstFrom[id]!, firstTo[id]!, bytes, lineFrom, lineTo))) {
        slot = (slot + 1) & (size - 1);
        id = slots[slot]!;
      }
      if (id === -1) {
        id = idCount;
        idCount += 1;
        firstSide[id] = side;
        firstFrom[id] = lineFrom;
        firstTo[id] = lineTo;
        firstHash[id] = hash;
        slots[slot] = id;
      }
      ids[index] = id;
      lineFrom = lineTo;
    }
    return ids;
  };
  return { left: numbered(0), right: numbered(1), idCount };
}

/** Each line of the span: its FNV-1a hash, and where it ends (just after its line break; the last may have none). */
function hashedLines({ bytes, from, to }: Span): { hashes: Int32Array; ends: Int32Array } {
  // Counted in a loop of our own: Buffer's indexOf costs a call into Node per line.
  let breaks = 0;
  for (let at = from; at < to; at += 1) if (bytes[at] === newline) breaks += 1;
  const unbroken = to > from && bytes[to - 1] !== newline ? 1 : 0;
  const [hashes, ends] = [new Int32Array(breaks + unbroken), new Int32Array(breaks + unbroken)];
  let [line, hash] = [0, fnvStart];
  for (let at = from; at < to; at += 1) {
    const byte = bytes[at]!;
    hash = Math.imul(hash ^ byte, fnvPrime);
    if (byte === newline) {
      hashes[line] = hash;
      ends[line] = at + 1;
      line += 1;
      hash = fnvStart;
    }
  }
  if (unbroken) [hashes[line], ends[line]] = [hash, to];
  return { hashes, ends };
}

const fnvStart = 0x811c9dc5 | 0;
const fnvPrime = 0x01000193;

function sameBytes(a: Uint8Array, aFrom: number, aTo: number, b: Uint8Array, bFrom: number, bTo: number): boolean {
  if (aTo - aFrom !== bTo - bFrom) return false;
  for (let offset = 0; offset < aTo - aFrom; offset += 1) if (a[aFrom + offset] !== b[bFrom + offset]) return false;
  return true;
}
