import { hiddenDirectories } from '../workspace/pathRules.js';

/** A regular file: its content by hash, its permission bits, and the lstat fields that tell it unchanged. */
export interface FileContentRecord {
  type: 'file';
  /** Permission bits (mode & 0o7777). */
  mode: number;
  /** sha256 of the content, hex. */
  hash: string;
  /** Bytes hashed. */
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /**
   * Set when the file's times were too close to the snapshot to prove a later change would show in them
   * (git's "racy clean" case), or when it kept changing while being read: the next snapshot reads it again
   * instead of trusting size and times.
   */
  recheck?: true;
}

/** A symlink is recorded as itself, its target text, never followed. */
export interface SymlinkRecord {
  type: 'symlink';
  target: string;
}

/**
 * A path whose content could not be recorded: a FIFO, socket or device, or a file we may not read.
 * Restore leaves whatever is at such a path alone rather than remove what it never saw.
 */
export interface UnrecordedRecord {
  type: 'unrecorded';
}

export type FileRecord = FileContentRecord | SymlinkRecord | UnrecordedRecord;

/** A workspace as a checkpoint sees it: every file git would see and every folder, by path from the root. */
export interface WorkspaceState {
  /** Files, symlinks and unrecorded entries, by path with '/' separators. */
  files: Map<string, FileRecord>;
  /** Every folder except the root itself, including empty ones. */
  folders: Set<string>;
  /** Each folder's permission bits, where known (checkpoints older than this record none; then undo leaves modes alone). */
  folderModes?: Map<string, number>;
}

/** Whether restoring `wanted` over `present` would change anything a user can see: content, mode or link target. */
export function sameContent(wanted: FileRecord, present: FileRecord | undefined): boolean {
  if (!present || wanted.type !== present.type) return false;
  if (wanted.type === 'symlink') return wanted.target === (present as SymlinkRecord).target;
  if (wanted.type === 'unrecorded') return true;
  const other = present as FileContentRecord;
  return wanted.hash === other.hash && wanted.mode === other.mode;
}

/** Files and symlinks whose content the state holds. */
export function recordedFileCount(state: WorkspaceState): number {
  let count = 0;
  for (const record of state.files.values()) if (record.type !== 'unrecorded') count += 1;
  return count;
}

/** 'a/b/c' → 'a/b'; 'c' → ''. */
export function parentOf(relPath: string): string {
  const slash = relPath.lastIndexOf('/');
  return slash === -1 ? '' : relPath.slice(0, slash);
}

/** 'a/b/c' → 'c'. */
export function nameOf(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** Folders deepest first, so each is handled after everything inside it. */
export function deepestFirst(folders: Iterable<string>): string[] {
  return [...folders]
    .map((folder) => ({ folder, depth: depth(folder) }))
    .sort((a, b) => b.depth - a.depth || (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0))
    .map(({ folder }) => folder);
}

function depth(relPath: string): number {
  let count = 0;
  for (let at = relPath.indexOf('/'); at !== -1; at = relPath.indexOf('/', at + 1)) count += 1;
  return count;
}

/**
 * git's and the workbench's own folders (and a submodule's `.git` file), in any letter case, since on a
 * case-insensitive disk `.GIT` is `.git`: a checkpoint never records, writes or removes anything there.
 */
export function isHiddenName(name: string): boolean {
  return hiddenDirectories.has(name.toLowerCase());
}
