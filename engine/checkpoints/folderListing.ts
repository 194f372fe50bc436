import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { readGitignore } from '../workspace/gitignoreText.js';
import type { IgnoreRules } from '../workspace/ignoreRules.js';
import type { UnreachableSubtree } from '../workspace/unreachable.js';
import { racyWindowMs } from './statRecord.js';
import { isHiddenName, joinPath } from './workspaceState.js';

/** The paths of what is directly in a folder. */
export interface FolderListing {
  /** Files, symlinks and anything else that is not a folder. */
  files: string[];
  folders: string[];
  /** The folder's own permission bits (mode & 0o7777), which undo brings back. */
  mode: number;
}

/** A folder as one scan listed and sorted it out, kept for the next scan. */
export interface ListedFolder extends FolderListing {
  /** Entries whose whole path is too long for the system to use: in neither list, never read. */
  unreachable: UnreachableSubtree[];
  /** Names and whether each is a folder, in listing order. */
  names: string[];
  isFolder: boolean[];
  /** The rules from above it, and what its own .gitignore (text, or null) made of them. */
  inherited: IgnoreRules;
  gitignore: string | null;
  rules: IgnoreRules;
  /** The folder's own lstat, taken before it was listed. */
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Its times were far enough before the scan began that adding or removing a name since must have changed them. */
  settled: boolean;
}

/** The folder a scan walks, and which paths below it are too long to use (see tooLongBelow). */
export interface ScanRoot {
  root: string;
  tooLong: (relPath: string) => string | null;
}

/** Folders by path ('' for the root), as the last scan left them. */
export type ListingCache = Map<string, ListedFolder>;

/**
 * Lists a folder and sorts out which of its entries git would see, doing as little of that as it can:
 *
 * - nothing but an lstat when the folder's times and inode are those of last time, its listing then was
 *   settled, the rules from above are the same and its .gitignore reads the same: a name added, removed
 *   or renamed changes a folder's times, as git's untracked cache also relies on;
 * - a listing but no .gitignore verdicts when it holds the same names, of the same kinds, under the
 *   same rules;
 * - all of it otherwise.
 */
export function listFolder(
  { root, tooLong }: ScanRoot,
  relDir: string,
  inherited: IgnoreRules,
  cached: ListedFolder | undefined,
  scanStart: number,
): ListedFolder | { error: NodeJS.ErrnoException } {
  const dir = path.join(root, relDir);
  let stats: Stats;
  let entries: Dirent[];
  try {
    stats = lstatSync(dir);
    if (!stats.isDirectory()) return { error: Object.assign(new Error(`${relDir} is not a folder`), { code: 'ENOTDIR' }) };
    const times = { mode: stats.mode & 0o7777, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, settled: Math.max(stats.mtimeMs, stats.ctimeMs) < scanStart - racyWindowMs(stats.mtimeMs) };
    if (cached && isUnchanged(cached, stats, inherited, root, relDir)) return { ...cached, ...times };
    entries = readdirSync(dir, { withFileTypes: true });
    const verdicts = cached && holdsSameNames(cached, entries, inherited, root, relDir) ? cached : sortOut(entries, inherited, { root, tooLong }, relDir);
    return { ...verdicts, ...times };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  }
}

function isUnchanged(cached: ListedFolder, stats: Stats, inherited: IgnoreRules, root: string, relDir: string): boolean {
  if (!cached.settled || cached.inherited !== inherited) return false;
  if (cached.ino !== stats.ino || cached.mtimeMs !== stats.mtimeMs || cached.ctimeMs !== stats.ctimeMs) return false;
  return cached.gitignore === null || readGitignore(root, relDir) === cached.gitignore;
}

function holdsSameNames(cached: ListedFolder, entries: Dirent[], inherited: IgnoreRules, root: string, relDir: string): boolean {
  if (cached.inherited !== inherited || cached.names.length !== entries.length) return false;
  for (const [index, entry] of entries.entries()) {
    if (entry.name !== cached.names[index] || entry.isDirectory() !== cached.isFolder[index]) return false;
  }
  return cached.gitignore === null || readGitignore(root, relDir) === cached.gitignore;
}

/** Which entries of a folder git would see, and the rules for what is inside them. */
function sortOut(entries: Dirent[], inherited: IgnoreRules, { root, tooLong }: ScanRoot, relDir: string): Omit<ListedFolder, 'mode' | 'mtimeMs' | 'ctimeMs' | 'ino' | 'settled'> {
  const hasGitignore = entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory());
  const gitignore = hasGitignore ? readGitignore(root, relDir) : null;
  const rules = hasGitignore ? inherited.enter(root, relDir) : inherited;
  const sorted = { files: [] as string[], folders: [] as string[], unreachable: [] as UnreachableSubtree[], names: [] as string[], isFolder: [] as boolean[], inherited, gitignore, rules };
  for (const entry of entries) {
    const isFolder = entry.isDirectory();
    sorted.names.push(entry.name);
    sorted.isFolder.push(isFolder);
    if (isHiddenName(entry.name)) continue;
    const relPath = joinPath(relDir, entry.name);
    if (rules.ignores(relPath, isFolder)) continue;
    const beyond = tooLong(relPath);
    if (beyond) sorted.unreachable.push({ relPath, reason: beyond });
    else (isFolder ? sorted.folders : sorted.files).push(relPath);
  }
  return sorted;
}


