import { setImmediate as nextTurn } from 'node:timers/promises';
import { IgnoreRules } from '../workspace/ignoreRules.js';
import { tooLongBelow } from '../workspace/pathLimits.js';
import { listingFailureReason, type UnreachableSubtree } from '../workspace/unreachable.js';
import { listFolder, type FolderListing, type ListingCache } from './folderListing.js';
import { StatPipeline, type StatTable } from './statPipeline.js';
import { parentOf } from './workspaceState.js';

export type { FolderListing, ListingCache } from './folderListing.js';

export interface WorkspaceScan extends StatTable {
  /** Each folder git would walk into ('' for the root) and what is directly in it. */
  listing: Map<string, FolderListing>;
  /** What exists but could not be reached: folders that could not be listed, paths too long to use. */
  unreachable: UnreachableSubtree[];
  /** For the next scan. */
  cache: ListingCache;
}

/** How long the walk may keep the event loop to itself: short, as the lstat worker's answers come in between. */
const turnMs = 10;

/**
 * Lists the workspace as walkFiles does (nested .gitignore honoured, never entering .git/ or .workbench/,
 * symlinks as entries, never followed), and also yields the folders, since a checkpoint must bring back
 * empty ones and remove new ones, which walkFiles has no way to report. Files are lstat'ed on the lstat
 * worker while the walk goes on. Folders are looked at synchronously, in turns of a few milliseconds: the
 * promise round trip of an asynchronous listing costs the walking thread more than the listing.
 */
export async function scanWorkspace(root: string, options: { signal?: AbortSignal; cache?: ListingCache } = {}): Promise<WorkspaceScan> {
  const { signal, cache } = options;
  const scanStart = Date.now();
  const listing = new Map<string, FolderListing>();
  const nextCache: ListingCache = new Map();
  const unreachable: UnreachableSubtree[] = [];
  const scanRoot = { root, tooLong: tooLongBelow(root) };
  const vanished: string[] = [];
  const stats = new StatPipeline(root);
  const stack: { relDir: string; rules: IgnoreRules }[] = [{ relDir: '', rules: IgnoreRules.none }];
  let turnStart = performance.now();
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (performance.now() - turnStart > turnMs) {
      await nextTurn();
      turnStart = performance.now();
    }
    signal?.throwIfAborted();
    const listed = listFolder(scanRoot, item.relDir, item.rules, cache?.get(item.relDir), scanStart);
    if ('error' in listed) {
      if (item.relDir === '') throw listed.error;
      const reason = listingFailureReason(listed.error);
      if (reason) unreachable.push({ relPath: item.relDir, reason });
      else vanished.push(item.relDir); // gone, or swapped for a symlink, since its parent was listed
      continue;
    }
    nextCache.set(item.relDir, listed);
    listing.set(item.relDir, { files: listed.files, folders: listed.folders, mode: listed.mode });
    unreachable.push(...listed.unreachable);
    for (const file of listed.files) stats.add(file);
    for (const folder of listed.folders) stack.push({ relDir: folder, rules: listed.rules });
  }
  for (const folder of vanished) {
    const parent = listing.get(parentOf(folder));
    if (parent) listing.set(parentOf(folder), { ...parent, folders: parent.folders.filter((relPath) => relPath !== folder) });
  }
  return { ...(await stats.finish()), listing, unreachable, cache: nextCache };
}
