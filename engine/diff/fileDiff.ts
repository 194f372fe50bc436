import type { FileChangeStatus, FileDiff, FileSideView, LineEndings } from '../contract/changes.js';
import { countLineChanges } from './lineCounts.js';
import { diffLines, type LineDiff } from './lineDiff.js';
import { decodeText, textViewOf, type ContentView } from './textContent.js';

/** One side of a change as the diff reads it: a file's bytes, a file known only by its size (with why), or a symlink. */
export type DiffSide =
  | { kind: 'file'; mode: number; size: number; bytes: Uint8Array }
  | { kind: 'file'; mode: number; size: number; notText: string }
  | { kind: 'symlink'; target: string };

export interface DiffFilesOptions {
  path: string;
  /** Set for a rename: where the file was. */
  oldPath?: string;
  /** null: the file does not exist on that side. */
  before: DiffSide | null;
  after: DiffSide | null;
  /** Unchanged lines kept around each change; Infinity keeps them all (`wholeFile`); null: the line counts only, no hunks. */
  context: number | null;
}

const eolNames: Record<LineEndings, string> = { lf: 'LF', crlf: 'CRLF', mixed: 'mixed', none: 'none' };

/** What the assembly of a diff needs of a side: its kind, and a file's mode and size. */
export type SideMeta = { kind: 'file'; mode: number; size: number } | { kind: 'symlink'; target: string };

/**
 * The diff of one file between two sides. A symlink compares as its target text (as git shows it); a
 * side that is not text (binary, not UTF-8, too large, unreadable) makes the change one of sizes only.
 */
export function diffFiles(options: DiffFilesOptions): FileDiff {
  const { before, after, context } = options;
  const [beforeText, afterText] = [before && textOfSide(before), after && textOfSide(after)];
  const bytesOf = (side: SideText | null) => (side === null ? noBytes : side.bytes);
  const [beforeBytes, afterBytes] = [bytesOf(beforeText), bytesOf(afterText)];
  const lines = beforeBytes && afterBytes ? lineChanges(beforeBytes, afterBytes, context) : null;
  return assembleDiff({ ...options, beforeContent: beforeText?.view ?? null, afterContent: afterText?.view ?? null, lines });
}

/**
 * The line diff of two texts given as UTF-8 bytes, with `context` lines around each change; `context`
 * null counts the lines only (no hunks), on the bytes without decoding them (see countLineChanges).
 */
export function lineChanges(before: Uint8Array, after: Uint8Array, context: number | null): LineDiff {
  if (context === null) return { hunks: [], ...countLineChanges(before, after) };
  return diffLines(decodeText(before), decodeText(after), { context });
}

const noBytes = new Uint8Array(0);

/** A side's text view, and its bytes when it is text (null when not). */
interface SideText {
  view: ContentView;
  bytes: Uint8Array | null;
}

function textOfSide(side: DiffSide): SideText {
  if (side.kind === 'symlink') return { view: { lines: side.target === '' ? 0 : 1, eol: 'none' }, bytes: Buffer.from(side.target) };
  if (!('bytes' in side)) return { view: { notText: side.notText }, bytes: null };
  const view = textViewOf(side.bytes);
  return { view, bytes: 'notText' in view ? null : side.bytes };
}

export interface AssembleDiffOptions {
  path: string;
  oldPath?: string;
  before: SideMeta | null;
  after: SideMeta | null;
  context: number | null;
  beforeContent: ContentView | null;
  afterContent: ContentView | null;
  /** The line diff of the two texts; null when a side is not text. */
  lines: LineDiff | null;
}

/** A FileDiff from what each side is, its content's view, and the line diff (computed here or by the diff worker). */
export function assembleDiff({ path, oldPath, before, after, context, beforeContent, afterContent, lines }: AssembleDiffOptions): FileDiff {
  const status: FileChangeStatus = before === null ? 'added' : after === null ? 'deleted' : oldPath !== undefined ? 'renamed' : 'modified';
  const change = {
    path,
    ...(oldPath !== undefined && status === 'renamed' ? { oldPath } : {}),
    status,
    before: before && beforeContent && viewOf(before, beforeContent),
    after: after && afterContent && viewOf(after, afterContent),
    notes: notesOf(before, after, beforeContent, afterContent),
  };
  if (!lines) return { ...change, added: 0, removed: 0, binary: true, hunks: [], wholeFile: false, approximate: false };
  return { ...change, added: lines.added, removed: lines.removed, binary: false, hunks: lines.hunks, wholeFile: context === Number.POSITIVE_INFINITY, approximate: lines.approximate };
}

function viewOf(side: SideMeta, content: ContentView): FileSideView {
  const text = 'notText' in content ? { notText: content.notText } : { lines: content.lines, eol: content.eol };
  if (side.kind === 'symlink') return { kind: 'symlink', size: Buffer.byteLength(side.target), target: side.target, ...text };
  return { kind: 'file', size: side.size, mode: side.mode, ...text };
}

function notesOf(before: SideMeta | null, after: SideMeta | null, beforeContent: ContentView | null, afterContent: ContentView | null): string[] {
  if (!before || !after) return [];
  const notes: string[] = [];
  if (before.kind !== after.kind) notes.push(after.kind === 'symlink' ? 'a file became a symlink' : 'a symlink became a file');
  if (before.kind === 'file' && after.kind === 'file' && before.mode !== after.mode) notes.push(`mode ${permissions(before.mode)} → ${permissions(after.mode)}`);
  if (before.kind === 'file' && after.kind === 'file' && beforeContent && afterContent && 'eol' in beforeContent && 'eol' in afterContent) {
    const [from, to] = [beforeContent.eol, afterContent.eol];
    if (from !== to && from !== 'none' && to !== 'none') notes.push(`line endings ${eolNames[from]} → ${eolNames[to]}`);
  }
  return notes;
}

/** 0o100755 → "755"; set-id and sticky bits show as a fourth digit ("4755"). */
export function permissions(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(3, '0');
}
