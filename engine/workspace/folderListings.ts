import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';

/** A folder's entries sorted by name, as a walk goes through them, or why they could not be listed. */
export type Listing = { entries: Dirent[] } | { error: unknown };

/**
 * How much older than a listing the folder's last change must be for the listing to be trusted: past
 * the coarsest timestamps a folder may have (FAT keeps 2 s), so a change in the same tick cannot hide.
 */
const settledMs = 2_000;
/**
 * How long a kept listing is trusted: some network and FUSE file systems do not update a folder's times
 * when its entries change, so what such a folder gained or lost is seen at the latest this long after.
 */
const maxAgeMs = 30_000;
/** Folders kept at most, over every root; past that the oldest go first. */
const maxFolders = 100_000;

interface Kept {
  /** When the listing began (Date.now()). */
  listedAt: number;
  entries: Dirent[];
  /** The folder as a later walk's lstat found it, once one has: what later walks compare with. */
  seen: { dev: number; ino: number; ctimeMs: number; mtimeMs: number } | null;
}

/**
 * Folder listings kept between walks. A walk lists every folder it enters, each time a model turn lists
 * files, maps the folder or searches it. A listing is given again while the folder's lstat says nothing
 * was added, removed or renamed in it since: its change time, which any of those moves on and which
 * cannot be set back (unlike the modification time), is older than the listing by more than timestamps
 * can lag, or, once a later walk has seen it so, the folder and its times are still what that walk saw.
 * A first walk costs no more than a listing per folder; a later one an lstat, a third of a listing.
 */
export class FolderListings {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = Date.now) {}

  list(folder: string): Listing {
    const now = this.now();
    const known = this.kept.get(folder);
    if (known && now - known.listedAt < maxAgeMs && this.stillListed(folder, known)) return { entries: known.entries };
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (known) this.kept.delete(folder);
      return { error };
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.keep(folder, { listedAt: now, entries, seen: null }, known !== undefined);
    return { entries };
  }

  /** Lets go of every kept listing: the next walk lists each folder, as a process's first does. */
  clear(): void {
    this.kept.clear();
  }

  /** Whether nothing was added, removed or renamed in the folder since `known` was listed (see the class). */
  private stillListed(folder: string, known: Kept): boolean {
    const stats = lstatOrNull(folder);
    if (!stats?.isDirectory()) return false;
    const { seen } = known;
    if (seen) return stats.ino === seen.ino && stats.dev === seen.dev && stats.ctimeMs === seen.ctimeMs && stats.mtimeMs === seen.mtimeMs;
    // Listed after its last change, by more than the coarsest timestamps (FAT's 2 s) can lag: a change since would be later.
    if (stats.ctimeMs >= known.listedAt - settledMs) return false;
    known.seen = { dev: stats.dev, ino: stats.ino, ctimeMs: stats.ctimeMs, mtimeMs: stats.mtimeMs };
    return true;
  }

  /** Keeps a listing as the newest (a Map keeps the order things were set in, so the oldest go first). */
  private keep(folder: string, kept: Kept, replacing: boolean): void {
    if (replacing) this.kept.delete(folder);
    this.kept.set(folder, kept);
    if (this.kept.size > maxFolders) this.kept.delete(this.kept.keys().next().value!);
  }
}

function lstatOrNull(folder: string): Stats | null {
  try {
    return lstatSync(folder);
  } catch {
    return null;
  }
}
