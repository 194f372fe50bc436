import { setImmediate as nextTurn } from 'node:timers/promises';
import { PathRanking } from '../contract/fuzzyPath.js';
import type { PathMatches } from '../contract/index.js';
import type { OnUnreachable } from '../workspace/unreachable.js';
import { walkFileRuns } from '../workspace/walkFiles.js';

/** Matches one search returns: enough to choose from, few enough to show at once. */
export const pathMatchLimit = 50;
/** Files listed at most; a larger folder is searched among its first ones (in name order). */
const listedFilesLimit = 100_000;
/** A listing this recent is reused, so typing a query walks the folder once, not once a keystroke. */
const freshForMs = 5000;
/** Ranking runs in slices of about this long, so the process (in the desktop app, the main process) stays responsive. */
const sliceMs = 8;

interface PathEntry {
  path: string;
  kind: 'file' | 'folder';
}

interface Listing {
  entries: PathEntry[];
  /** What an empty query shows: the shallowest paths, folders first. */
  shallowest: PathEntry[];
  truncated: boolean;
}

export interface PathSearchOptions {
  root: string;
  /** Files listed at most (tests lower it). */
  filesLimit?: number;
  now?: () => number;
  /** Told of each subtree the walk cannot reach (see walkFiles). */
  onUnreachable?: OnUnreachable;
}

/**
 * Finds files and folders of the opened folder for the composer's `@` completion: the paths git would
 * not ignore (never .git/ or .workbench/), ranked by fuzzy match (engine/contract/fuzzyPath.ts), at most
 * `pathMatchLimit` of them. An empty query gives the shallowest paths first.
 */
export class PathSearch {
  private listing: { at: number; listing: Promise<Listing> } | null = null;

  constructor(private readonly options: PathSearchOptions) {}

  /**
   * The best matches for `query`. Ranking yields to the event loop every few milliseconds, so a long
   * search never holds up the process; the composer asks once per typing pause and drops answers to
   * queries it has moved past.
   */
  async search(query: string): Promise<PathMatches> {
    const { entries, shallowest, truncated } = await this.current();
    const trimmed = query.trim();
    if (trimmed === '') return { matches: shallowest, truncated };
    const ranking = new PathRanking<PathEntry>(trimmed, pathMatchLimit);
    let sliceStart = performance.now();
    for (let index = 0; index < entries.length; index += 1) {
      ranking.add(entries[index]!);
      if (index % 512 !== 511 || performance.now() - sliceStart < sliceMs) continue;
      await nextTurn();
      sliceStart = performance.now();
    }
    return { matches: ranking.best.map(({ path, kind }) => ({ path, kind })), truncated };
  }

  private current(): Promise<Listing> {
    const now = (this.options.now ?? Date.now)();
    if (this.listing && now - this.listing.at < freshForMs) return this.listing.listing;
    const { root, filesLimit = listedFilesLimit, onUnreachable } = this.options;
    const listing = listPaths({ root, limit: filesLimit, onUnreachable });
    this.listing = { at: now, listing };
    listing.catch(() => {
      if (this.listing?.listing === listing) this.listing = null;
    });
    return listing;
  }
}

/** Every file the walk yields and every folder above one, up to `limit` files. */
async function listPaths({ root, limit, onUnreachable }: { root: string; limit: number; onUnreachable?: OnUnreachable | undefined }): Promise<Listing> {
  const entries: PathEntry[] = [];
  const folders = new Set<string>();
  let truncated = false;
  walk: for await (const run of walkFileRuns(root, { onUnreachable })) {
    for (const { relPath, dirent } of run) {
      if (entries.length - folders.size >= limit) {
        truncated = true;
        break walk;
      }
      for (let slash = relPath.indexOf('/'); slash > 0; slash = relPath.indexOf('/', slash + 1)) {
        const folder = relPath.slice(0, slash);
        if (!folders.has(folder)) {
          folders.add(folder);
          entries.push({ path: folder, kind: 'folder' });
        }
      }
      // A symlink counts as a file here; attaching it is judged (and a link leading out refused) when it is read.
      entries.push({ path: relPath, kind: dirent.isDirectory() ? 'folder' : 'file' });
    }
  }
  return { entries, shallowest: shallowestFirst(entries), truncated };
}

function shallowestFirst(entries: readonly PathEntry[]): PathEntry[] {
  const depth = (entry: PathEntry) => entry.path.split('/').length;
  return [...entries].sort((a, b) => depth(a) - depth(b) || (a.kind === b.kind ? 0 : a.kind === 'folder' ? -1 : 1) || (a.path < b.path ? -1 : 1)).slice(0, pathMatchLimit);
}
