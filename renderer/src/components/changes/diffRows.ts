import type { FileDiff } from '../../../../engine/contract/changes.js';

/** One line of a diff as drawn: its numbers on the old and new side (null where it has none), and whether it ends the file without a newline. */
export interface LineRow {
  kind: 'line';
  sign: ' ' | '+' | '-';
  oldNo: number | null;
  newNo: number | null;
  text: string;
  /** The line had a CR before its newline, shown when the file's line endings changed. */
  cr: boolean;
  noNewline: boolean;
}

/** Unchanged lines left out; `id` opens it when its lines are known (`openable`). */
export interface FoldRow {
  kind: 'fold';
  id: string;
  count: number;
  openable: boolean;
}

export type DiffRow = LineRow | FoldRow;

/** Unchanged lines shown around each change before the rest of a stretch is folded away. */
export const contextLines = 3;

/**
 * A file's diff as rows to draw: every hunk line with its line numbers, and each long stretch of unchanged
 * lines folded to a row saying how many (opened when its id is in `opened` and the diff holds its lines).
 * Pure, so the Changes view and the approval cards draw the same thing.
 */
export function diffRows(diff: FileDiff, opened: ReadonlySet<string> = new Set()): DiffRow[] {
  const showCr = diff.before?.eol !== undefined && diff.after?.eol !== undefined && diff.before.eol !== diff.after.eol;
  const rows: DiffRow[] = [];
  let oldEnd = 1;
  diff.hunks.forEach((hunk, index) => {
    const gap = hunk.oldStart - oldEnd;
    if (gap > 0) rows.push({ kind: 'fold', id: `gap-${index}`, count: gap, openable: false });
    rows.push(...foldUnchanged(hunkRows(hunk.oldStart, hunk.newStart, hunk.lines, showCr), `hunk-${index}`, opened));
    oldEnd = hunk.oldStart + hunk.oldLines;
  });
  const total = diff.before?.lines;
  if (diff.hunks.length > 0 && total !== undefined && total >= oldEnd) rows.push({ kind: 'fold', id: 'tail', count: total - oldEnd + 1, openable: false });
  return rows;
}

function hunkRows(oldStart: number, newStart: number, lines: readonly string[], showCr: boolean): LineRow[] {
  const rows: LineRow[] = [];
  let oldNo = oldStart;
  let newNo = newStart;
  for (const line of lines) {
    if (line.startsWith('\\')) {
      const last = rows.at(-1);
      if (last) last.noNewline = true;
      continue;
    }
    const sign = line[0] === '+' || line[0] === '-' ? line[0] : ' ';
    const body = line.slice(1);
    const cr = body.endsWith('\r');
    rows.push({
      kind: 'line',
      sign,
      oldNo: sign === '+' ? null : oldNo,
      newNo: sign === '-' ? null : newNo,
      text: cr ? body.slice(0, -1) : body,
      cr: cr && showCr,
      noNewline: false,
    });
    if (sign !== '+') oldNo += 1;
    if (sign !== '-') newNo += 1;
  }
  return rows;
}

/** Folds each stretch of unchanged lines longer than twice the context (and the rest), keeping three lines next to each change. */
function foldUnchanged(lines: readonly LineRow[], prefix: string, opened: ReadonlySet<string>): DiffRow[] {
  const rows: DiffRow[] = [];
  let start = 0;
  while (start < lines.length) {
    if (lines[start]!.sign !== ' ') {
      rows.push(lines[start]!);
      start += 1;
      continue;
    }
    let end = start;
    while (end < lines.length && lines[end]!.sign === ' ') end += 1;
    const keepBefore = start === 0 ? 0 : contextLines;
    const keepAfter = end === lines.length ? 0 : contextLines;
    const folded = end - start - keepBefore - keepAfter;
    const id = `${prefix}-${start}`;
    if (folded > 1 && !opened.has(id)) {
      rows.push(...lines.slice(start, start + keepBefore), { kind: 'fold', id, count: folded, openable: true }, ...lines.slice(end - keepAfter, end));
    } else {
      rows.push(...lines.slice(start, end));
    }
    start = end;
  }
  return rows;
}
