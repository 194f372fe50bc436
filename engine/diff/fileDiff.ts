import type { FileChangeStatus, FileDiff, FileSideView, LineEndings } from '../contract/changes.js';
import { diffLines } from './lineDiff.js';
import { contentOf, type Content } from './textContent.js';

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
  /** Unchanged lines kept around each change; Infinity keeps them all (`wholeFile`). */
  context: number;
}

const eolNames: Record<LineEndings, string> = { lf: 'LF', crlf: 'CRLF', mixed: 'mixed', none: 'none' };

/**
 * The diff of one file between two sides. A symlink compares as its target text (as git shows it); a
 * side that is not text (binary, not UTF-8, too large, unreadable) makes the change one of sizes only.
 */
export function diffFiles({ path, oldPath, before, after, context }: DiffFilesOptions): FileDiff {
  const beforeContent = before && contentOfSide(before);
  const afterContent = after && contentOfSide(after);
  const status: FileChangeStatus = before === null ? 'added' : after === null ? 'deleted' : oldPath !== undefined ? 'renamed' : 'modified';
  const change = {
    path,
    ...(oldPath !== undefined && status === 'renamed' ? { oldPath } : {}),
    status,
    before: before && beforeContent && viewOf(before, beforeContent),
    after: after && afterContent && viewOf(after, afterContent),
    notes: notesOf(before, after, beforeContent, afterContent),
  };
  const binary = (beforeContent !== null && 'notText' in beforeContent) || (afterContent !== null && 'notText' in afterContent);
  if (binary) return { ...change, added: 0, removed: 0, binary: true, hunks: [], wholeFile: false, approximate: false };
  const textOf = (content: Content | null) => (content && 'text' in content ? content.text : '');
  const lines = diffLines(textOf(beforeContent), textOf(afterContent), { context });
  return { ...change, added: lines.added, removed: lines.removed, binary: false, hunks: lines.hunks, wholeFile: context === Number.POSITIVE_INFINITY, approximate: lines.approximate };
}

function contentOfSide(side: DiffSide): Content {
  if (side.kind === 'symlink') return { text: side.target, lines: side.target === '' ? 0 : 1, eol: 'none' };
  return 'bytes' in side ? contentOf(side.bytes) : { notText: side.notText };
}

function viewOf(side: DiffSide, content: Content): FileSideView {
  const text = 'text' in content ? { lines: content.lines, eol: content.eol } : { notText: content.notText };
  if (side.kind === 'symlink') return { kind: 'symlink', size: Buffer.byteLength(side.target), target: side.target, ...text };
  return { kind: 'file', size: side.size, mode: side.mode, ...text };
}

function notesOf(before: DiffSide | null, after: DiffSide | null, beforeContent: Content | null, afterContent: Content | null): string[] {
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
