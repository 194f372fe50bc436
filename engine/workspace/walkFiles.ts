import type { Dirent } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FolderListings } from './folderListings.js';
import { IgnoreRules } from './ignoreRules.js';
import { tooLongBelow } from './pathLimits.js';
import { hiddenDirectories } from './pathRules.js';
import { listingFailureReason, type OnUnreachable } from './unreachable.js';

export interface WalkedFile {
  /** Path from the root with '/' separators. */
  relPath: string;
  dirent: Dirent;
}

export interface WalkOptions {
  /**
   * Folder to walk, relative to `root` ('/' separators). The .gitignore files of its ancestors apply,
   * unless they ignore the folder itself: one asked for by name is walked with only the .gitignore files
   * inside it.
   */
  from?: string;
  signal?: AbortSignal;
  /**
   * Told of each file or folder the walk skips because it cannot be reached: a path past the system's
   * limit, a folder it may not read. Without it they are skipped silently.
   */
  onUnreachable?: OnUnreachable;
  /** Where folders are listed; the listings every walk of this process shares unless a test brings its own. */
  listings?: FolderListings;
}

/** Folder listings kept between the walks of this process (see FolderListings). */
const sharedListings = new FolderListings();

/** Lets go of the listings kept between walks: what a benchmark of a first walk starts from. */
export function forgetFolderListings(): void {
  sharedListings.clear();
}

/** Files of one folder that come one after another in walk order (no subfolder sorts between them). */
export type FileRun = WalkedFile[];

interface PendingFolder {
  relDir: string;
  /** How many names `relDir` has (0 for the root). */
  depth: number;
  rules: IgnoreRules;
}

/** How long the walk may keep the event loop to itself before letting other work run. */
const turnMs = 20;

/**
 * Every file under `root` that git would not ignore, depth first in name order, never entering .git/ or
 * .workbench/, as runs of files of one folder. Symlinks are yielded as entries, never followed. What
 * cannot be reached (see `onUnreachable`) is skipped, so one odd subtree never stops a walk; only the
 * folder asked for must list.
 *
 * One explicit stack instead of a generator per folder, holding runs rather than files, so a large tree
 * costs one step per run, not per file. Folders are listed synchronously, in turns of a few milliseconds
 * that let other work run in between: an asynchronous listing costs the walking thread more than the
 * listing itself (a request to the thread pool, a wake-up, a callback), which on a large tree is most of
 * the walk, and the pool's threads take the cores a search's workers need. A folder that has not changed
 * since an earlier walk listed it is not listed again (see FolderListings).
 */
export async function* walkFileRuns(root: string, options: WalkOptions = {}): AsyncGenerator<FileRun> {
  const { from = '', signal, onUnreachable, listings = sharedListings } = options;
  const rules = from && !IgnoreRules.ignoresFolder(root, from) ? IgnoreRules.forAncestorsOf(root, from) : IgnoreRules.none;
  const tooLong = tooLongBelow(root);
  const stack: (FileRun | PendingFolder)[] = [{ relDir: from, depth: from ? from.split('/').length : 0, rules }];
  let turnStart = performance.now();
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (Array.isArray(item)) {
      yield item;
      continue;
    }
    if (performance.now() - turnStart > turnMs) {
      await nextTurn();
      turnStart = performance.now();
    }
    signal?.throwIfAborted();
    const listed = listings.list(item.relDir ? `${root}/${item.relDir}` : root);
    if ('error' in listed) {
      if (item.relDir === from) throw listed.error;
      const reason = listingFailureReason(listed.error);
      if (reason) onUnreachable?.({ relPath: item.relDir, reason });
      continue;
    }
    const inside = listedInside(item, listed.entries, { root, tooLong, onUnreachable });
    for (let index = inside.length - 1; index >= 0; index -= 1) stack.push(inside[index]!);
  }
}

/** What a walk goes on with from one folder's entries (sorted by name), in walk order: runs of its files, and its subfolders. */
function listedInside(
  folder: PendingFolder,
  entries: readonly Dirent[],
  { root, tooLong, onUnreachable }: { root: string; tooLong: (relPath: string) => string | null; onUnreachable: OnUnreachable | undefined },
): (FileRun | PendingFolder)[] {
  const rules = entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory()) ? folder.rules.enter(root, folder.relDir) : folder.rules;
  const depth = folder.depth + 1;
  const inside: (FileRun | PendingFolder)[] = [];
  let run: FileRun | null = null;
  for (const entry of entries) {
    const relPath = folder.relDir ? `${folder.relDir}/${entry.name}` : entry.name;
    const isFolder = entry.isDirectory();
    if ((isFolder && hiddenDirectories.has(entry.name)) || rules.ignores(relPath, isFolder, depth)) continue;
    const beyond = tooLong(relPath);
    if (beyond) {
      onUnreachable?.({ relPath, reason: beyond });
    } else if (isFolder) {
      run = null;
      inside.push({ relDir: relPath, depth, rules });
    } else {
      if (!run) inside.push((run = []));
      run.push({ relPath, dirent: entry });
    }
  }
  return inside;
}

/** walkFileRuns file by file, for a caller that looks at each file on its own. */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  for await (const run of walkFileRuns(root, options)) yield* run;
}

export async function countFiles(root: string, options: Pick<WalkOptions, 'signal' | 'onUnreachable'> = {}): Promise<number> {
  let count = 0;
  for await (const run of walkFileRuns(root, options)) count += run.length;
  return count;
}
