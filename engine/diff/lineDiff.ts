import type { DiffHunk } from '../contract/changes.js';
import { alignLines, changedLines, type Block } from './alignLines.js';
import { lineWork } from './lineWork.js';

export interface LineDiff {
  hunks: DiffHunk[];
  added: number;
  removed: number;
  /** The alignment gave up (see maxEditLength): every line between the common start and end is shown removed and added. */
  approximate: boolean;
}

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
  const { left, right, idCount } = lineIds(oldLines, newLines);
  const { blocks, approximate } = alignLines(left, right, idCount);
  return { hunks: hunksOf(blocks, oldLines, newLines, context), ...changedLines(blocks), approximate };
}

/** Each line as a number, equal lines equal numbers (dense, from 0), for alignLines. */
function lineIds(a: readonly string[], b: readonly string[]): { left: Int32Array; right: Int32Array; idCount: number } {
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
  lineWork.linesNumbered += a.length + b.length;
  return { left: idsOf(a), right: idsOf(b), idCount: ids.size };
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
