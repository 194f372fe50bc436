import { lstatSync } from 'node:fs';
import type { OnUnreachable } from './unreachable.js';
import { walkFileRuns } from './walkFiles.js';

export type FileTreeEntry = FileTreeFile | FileTreeFolder;

export interface FileTreeFile {
  readonly type: 'file' | 'symlink' | 'other';
  readonly name: string;
  /** Path from the workspace root, '/' separators. */
  readonly relPath: string;
  /** Bytes, once measured; 0 for a symlink, which is never followed; null until measured or if unreadable. */
  size: number | null;
}

export interface FileTreeFolder {
  readonly type: 'folder';
  readonly name: string;
  /** Path from the workspace root, '/' separators; '' for the root. */
  readonly relPath: string;
  /** Files and folders in name order. Folders with no visible file below them are left out. */
  readonly entries: FileTreeEntry[];
  /** Files anywhere below. */
  fileCount: number;
  /** Bytes of all files below, once measured with addSizes. */
  totalSize: number | null;
}

export interface FileTreeOptions {
  root: string;
  /** Folder to map, relative to `root` ('' for the root). */
  from: string;
  signal?: AbortSignal;
  /** Told of each subtree the walk cannot reach (see walkFiles). */
  onUnreachable?: OnUnreachable;
}

/**
 * The files git would not ignore under `from`, as a tree with recursive file counts: one walk, nothing
 * looked at but the folder listings. Sizes cost a stat per file, as much again as the walk, so they are
 * added separately, for the whole tree or for just the files that will be shown.
 */
export async function buildFileTree({ root, from, signal, onUnreachable }: FileTreeOptions): Promise<FileTreeFolder> {
  const top = folder(from);
  const folders = new Map<string, FileTreeFolder>([[from, top]]);
  const folderOf = (relDir: string): FileTreeFolder => {
    const known = folders.get(relDir);
    if (known) return known;
    const created = folder(relDir);
    folderOf(relDir.slice(0, Math.max(0, relDir.lastIndexOf('/')))).entries.push(created);
    folders.set(relDir, created);
    return created;
  };
  for await (const run of walkFileRuns(root, { from, signal, onUnreachable })) {
    const { relPath: first } = run[0]!;
    const into = folderOf(first.slice(0, Math.max(0, first.lastIndexOf('/'))));
    for (const { relPath, dirent } of run) {
      const type = dirent.isSymbolicLink() ? 'symlink' : dirent.isFile() ? 'file' : 'other';
      into.entries.push({ type, name: dirent.name, relPath, size: type === 'symlink' ? 0 : null });
    }
  }
  addCounts(top);
  return top;
}

/** Measures every file below `top` and fills in each folder's total. */
export function addSizes(root: string, top: FileTreeFolder): void {
  let total = 0;
  for (const entry of top.entries) {
    if (entry.type === 'folder') {
      addSizes(root, entry);
      total += entry.totalSize ?? 0;
    } else {
      measure(root, entry);
      total += entry.size ?? 0;
    }
  }
  top.totalSize = total;
}

/**
 * Measures just these files. The lstat is synchronous on purpose: each costs a couple of microseconds,
 * while the asynchronous one pays a thread-pool round trip that costs more than the stat itself.
 */
export function addFileSizes(root: string, files: readonly FileTreeFile[]): void {
  for (const file of files) measure(root, file);
}

function measure(root: string, file: FileTreeFile): void {
  if (file.size !== null) return;
  try {
    file.size = lstatSync(`${root}/${file.relPath}`).size;
  } catch {
    // vanished since it was listed, or may not be looked at: the size stays unknown
  }
}

function folder(relPath: string): FileTreeFolder {
  return { type: 'folder', name: relPath.slice(relPath.lastIndexOf('/') + 1), relPath, entries: [], fileCount: 0, totalSize: null };
}

function addCounts(target: FileTreeFolder): void {
  for (const entry of target.entries) {
    if (entry.type !== 'folder') target.fileCount += 1;
    else {
      addCounts(entry);
      target.fileCount += entry.fileCount;
    }
  }
}
