/**
 * The changes a request made to the folder, file by file, with their diffs: what the Changes view, the
 * approval cards, the undo dialog and `rpi-workbench diff` show. Types and small pure helpers only, free
 * of zod and of any package, so a sandboxed page may load it.
 */

import { formatBytes } from './units.js';

export type FileChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed';

export type LineEndings = 'lf' | 'crlf' | 'mixed' | 'none';

/** One side of a change: the file as it was, or as it is (or will be). */
export interface FileSideView {
  kind: 'file' | 'symlink';
  /** Bytes of a file; of the target text for a symlink. */
  size: number;
  /** Permission bits (e.g. 0o644); a symlink has none. */
  mode?: number;
  /** Lines of text; absent when the content is not text. */
  lines?: number;
  /** Why the content is not compared line by line: "PNG image", "not UTF-8 text", "too large to compare (40 MB)", "unreadable: …". */
  notText?: string;
  eol?: LineEndings;
  /** A symlink's target, as written in the link. */
  target?: string;
}

/**
 * A hunk of a unified diff, as jsdiff's structured patches have them: `lines` start with ' ' (unchanged),
 * '-' (removed) or '+' (added), without their line break; a line '\' says the line before it has no line
 * break at the end of the file. A start is 1-based; a side with no lines in the hunk gives the line after
 * which the others go.
 */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** One file a request created, changed, deleted or renamed, with its line counts. */
export interface FileChange {
  /** Where the file is after the change ('/' separators); the deleted path for a deletion. */
  path: string;
  /** Where a renamed file was. */
  oldPath?: string;
  status: FileChangeStatus;
  /** Lines added and removed; 0 when the content is not compared line by line. */
  added: number;
  removed: number;
  /** Not compared line by line (binary, too large or unreadable on a side): the sizes tell the change. */
  binary: boolean;
  before: FileSideView | null;
  after: FileSideView | null;
  /** What else changed, in words: "mode 644 → 755", "line endings LF → CRLF", "a symlink became a file". */
  notes: string[];
  /** For an earlier request: the file is back as it was before the request (reverted, or changed back since). */
  revertedSince?: boolean;
}

/** A file change with its diff. */
export interface FileDiff extends FileChange {
  hunks: DiffHunk[];
  /** The hunks hold every line of both versions, so each folded stretch of unchanged lines can be opened. */
  wholeFile: boolean;
  /** Too different to align line by line in reasonable time: shown as every old line removed and every new line added. */
  approximate: boolean;
}

export interface ChangeTotals {
  files: number;
  added: number;
  removed: number;
}

/**
 * Which changes of a request: 'request', what the request itself changed (from the checkpoint before it to
 * the checkpoint before the next request, or to the folder now for the latest); 'since', everything since
 * the checkpoint before it up to the folder now — what undoing it would take back.
 */
export type ChangeRange = 'request' | 'since';

export interface ChangeList {
  /** The request (a user message) the changes belong to. */
  messageId: string;
  range: ChangeRange;
  /** What the changes run up to: the folder as it is now, or the checkpoint taken before the next request. */
  until: 'folder' | 'next-request';
  files: FileChange[];
  totals: ChangeTotals;
}

/** What an approval would do to the folder, file by file; empty for actions that change no file (commands). */
export interface ApprovalPreview {
  files: FileDiff[];
  /** Files left out of a long list (deleting or moving a big folder). */
  more: number;
  /** Why the action would fail as asked (old_text not found, the destination exists…); null when it would go through. */
  problem: string | null;
}

/** A file put back by a revert, and what that did to it. */
export interface RevertedFile {
  path: string;
  change: 'restored' | 'removed' | 'recreated' | 'unchanged';
}

export interface RevertResult {
  files: RevertedFile[];
  /** The checkpoint taken just before the revert: `undo-revert` with it puts the files back as they were. */
  revertId: string;
}

const fileChangeTools = new Set(['write_file', 'edit_file', 'delete_file', 'move_file', 'write_xlsx']);

/** Whether a tool's approval is one of "file changes": allowing one for the rest of a request allows them all. */
export function isFileChangeTool(tool: string): boolean {
  return fileChangeTools.has(tool);
}

/** What "allow for the rest of this request" lets through for this tool, in words. */
export function requestScopeWords(tool: string): string {
  if (isFileChangeTool(tool)) return 'file changes';
  return tool === 'run_command' ? 'this command' : `${tool} calls`;
}

export function totalsOf(files: readonly Pick<FileChange, 'added' | 'removed'>[]): ChangeTotals {
  let added = 0;
  let removed = 0;
  for (const file of files) {
    added += file.added;
    removed += file.removed;
  }
  return { files: files.length, added, removed };
}

/** "3 files changed (+12 −4)", "1 file changed (+1 −0)", "No files changed". */
export function describeTotals({ files, added, removed }: ChangeTotals): string {
  if (files === 0) return 'No files changed';
  return `${files} ${files === 1 ? 'file' : 'files'} changed (+${added.toLocaleString('en-US')} −${removed.toLocaleString('en-US')})`;
}

/** What a change is, in a few words: "new file, 12 lines", "deletes 40 lines", "renames a.ts → b.ts", "binary, 1.2 KB → 3.4 KB". */
export function describeFileChange(change: FileChange): string {
  const { before, after } = change;
  if (change.binary) {
    const what = before?.notText ?? after?.notText ?? 'binary';
    if (change.status === 'added') return `new ${what}, ${sizeOf(after)}`;
    if (change.status === 'deleted') return `deletes ${what}, ${sizeOf(before)}`;
    return `${what}, ${sizeOf(before)} → ${sizeOf(after)}`;
  }
  switch (change.status) {
    case 'added':
      return `new ${after?.kind === 'symlink' ? 'symlink' : 'file'}, ${countLines(after?.lines ?? 0)}`;
    case 'deleted':
      return `deletes ${countLines(before?.lines ?? 0)}`;
    case 'renamed':
      return `renames ${change.oldPath ?? '?'} → ${change.path}${change.added + change.removed > 0 ? `, +${change.added} −${change.removed}` : ''}`;
    case 'modified':
      return `+${change.added} −${change.removed}`;
  }
}

function sizeOf(side: FileSideView | null): string {
  return side ? formatBytes(side.size) : 'nothing';
}

function countLines(lines: number): string {
  return `${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'}`;
}
