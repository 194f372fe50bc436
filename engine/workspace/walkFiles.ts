import { readdir, type Dirent } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
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
}

type Listing = { entries: Dirent[] } | { error: unknown };

type Pending =
  | { kind: 'file'; file: WalkedFile }
  | { kind: 'folder'; relDir: string; rules: IgnoreRules; listing: Promise<Listing> };

/** How long the walk may keep the event loop to itself before letting other work run. */
const turnMs = 20;

/**
 * Yields every file under `root` that git would not ignore, depth first in name order, never entering
 * .git/ or .workbench/. Symlinks are yielded as entries, never followed. What cannot be reached (see
 * `onUnreachable`) is skipped, so one odd subtree never stops a walk; only the folder asked for must list.
 *
 * One explicit stack instead of a generator per folder (which would pass every file up through each
 * level), and folders are listed two levels ahead of the one being consumed, so the walk seldom waits
 * for the disk. Listings that are done already resolve as microtasks, which never let other work run,
 * so the walk gives the event loop a turn every few milliseconds.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const { from = '', signal, onUnreachable } = options;
  const rules = from && !(await IgnoreRules.ignoresFolder(root, from)) ? await IgnoreRules.forAncestorsOf(root, from) : IgnoreRules.none;
  const tooLong = tooLongBelow(root);
  const lister = new ListingsAhead(root, tooLong);
  const stack: Pending[] = [{ kind: 'folder', relDir: from, rules, listing: lister.list(from, rules) }];
  let turnStart = performance.now();
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.kind === 'file') {
      yield item.file;
      continue;
    }
    if (performance.now() - turnStart > turnMs) {
      await nextTurn();
      turnStart = performance.now();
    }
    signal?.throwIfAborted();
    const listing = await item.listing;
    if ('error' in listing) {
      if (item.relDir === from) throw listing.error;
      const reason = listingFailureReason(listing.error);
      if (reason) onUnreachable?.({ relPath: item.relDir, reason });
      continue;
    }
    const entries = listing.entries;
    const rules = entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())
      ? await item.rules.enter(root, item.relDir)
      : item.rules;
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)); // reversed: the stack pops in name order
    for (const entry of entries) {
      const relPath = item.relDir ? `${item.relDir}/${entry.name}` : entry.name;
      const isFolder = entry.isDirectory();
      if ((isFolder && hiddenDirectories.has(entry.name)) || rules.ignores(relPath, isFolder)) continue;
      const beyond = tooLong(relPath);
      if (beyond) onUnreachable?.({ relPath, reason: beyond });
      else if (isFolder) stack.push({ kind: 'folder', relDir: relPath, rules, listing: lister.list(relPath, rules) });
      else stack.push({ kind: 'file', file: { relPath, dirent: entry } });
    }
  }
}

/**
 * Starts each folder's listing as soon as its parent's listing is in, rather than when the walk reaches
 * the parent, which would leave the walk waiting for the disk at every step down. Which subfolders to
 * start is judged by the rules above the parent (its own .gitignore is not read yet), so at worst a
 * folder that .gitignore ignores is listed once for nothing, never walked.
 */
class ListingsAhead {
  private readonly started = new Map<string, Promise<Listing>>();

  constructor(
    private readonly root: string,
    private readonly tooLong: (relPath: string) => string | null,
  ) {}

  list(relDir: string, rules: IgnoreRules): Promise<Listing> {
    const listing = this.started.get(relDir) ?? list(this.root, relDir);
    this.started.delete(relDir);
    void listing.then((done) => {
      if ('error' in done) return;
      for (const entry of done.entries) {
        const relPath = relDir ? `${relDir}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !hiddenDirectories.has(entry.name) && !this.tooLong(relPath) && !rules.ignores(relPath, true)) this.started.set(relPath, list(this.root, relPath));
      }
    });
    return listing;
  }
}

/**
 * Lists a folder without ever rejecting, so a listing started ahead cannot become an unhandled rejection.
 * The callback form of readdir, because the promise form costs about twice as much per folder.
 */
function list(root: string, relDir: string): Promise<Listing> {
  return new Promise((resolve) => {
    readdir(path.join(root, relDir), { withFileTypes: true }, (error, entries) => resolve(error ? { error } : { entries }));
  });
}

export async function countFiles(root: string, options: Pick<WalkOptions, 'signal' | 'onUnreachable'> = {}): Promise<number> {
  let count = 0;
  for await (const _ of walkFiles(root, options)) count += 1;
  return count;
}
