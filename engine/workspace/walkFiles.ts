import { readdir, type Dirent } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { IgnoreRules } from './ignoreRules.js';
import { hiddenDirectories } from './pathRules.js';

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
}

type Listing = { entries: Dirent[] } | { error: unknown };

type Pending =
  | { kind: 'file'; file: WalkedFile }
  | { kind: 'folder'; relDir: string; rules: IgnoreRules; listing: Promise<Listing> };

/** How long the walk may keep the event loop to itself before letting other work run. */
const turnMs = 20;

/**
 * Yields every file under `root` that git would not ignore, depth first in name order, never entering
 * .git/ or .workbench/. Symlinks are yielded as entries, never followed.
 *
 * One explicit stack instead of a generator per folder (which would pass every file up through each
 * level), and folders are listed two levels ahead of the one being consumed, so the walk seldom waits
 * for the disk. Listings that are done already resolve as microtasks, which never let other work run,
 * so the walk gives the event loop a turn every few milliseconds.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const { from = '', signal } = options;
  const rules = from && !(await IgnoreRules.ignoresFolder(root, from)) ? await IgnoreRules.forAncestorsOf(root, from) : IgnoreRules.none;
  const lister = new ListingsAhead(root);
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
      if (item.relDir === from || !isSkippable(listing.error)) throw listing.error;
      continue; // a subfolder we may not read, or that vanished meanwhile
    }
    const entries = listing.entries;
    const rules = entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())
      ? await item.rules.enter(root, item.relDir)
      : item.rules;
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)); // reversed: the stack pops in name order
    for (const entry of entries) {
      const relPath = item.relDir ? `${item.relDir}/${entry.name}` : entry.name;
      if (!entry.isDirectory()) {
        if (!rules.ignores(relPath, false)) stack.push({ kind: 'file', file: { relPath, dirent: entry } });
      } else if (!hiddenDirectories.has(entry.name) && !rules.ignores(relPath, true)) {
        stack.push({ kind: 'folder', relDir: relPath, rules, listing: lister.list(relPath, rules) });
      }
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

  constructor(private readonly root: string) {}

  list(relDir: string, rules: IgnoreRules): Promise<Listing> {
    const listing = this.started.get(relDir) ?? list(this.root, relDir);
    this.started.delete(relDir);
    void listing.then((done) => {
      if ('error' in done) return;
      for (const entry of done.entries) {
        const relPath = relDir ? `${relDir}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !hiddenDirectories.has(entry.name) && !rules.ignores(relPath, true)) this.started.set(relPath, list(this.root, relPath));
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

function isSkippable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR';
}

export async function countFiles(root: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  for await (const _ of walkFiles(root, { signal })) count += 1;
  return count;
}
