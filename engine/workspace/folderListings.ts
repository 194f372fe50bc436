import { readdirSync, type Dirent, type Stats } from 'node:fs';
import { lstatOrNull } from '../files/lstatOrNull.js';

/** A folder's entries sorted by name, as a walk goes through them, or why they could not be listed. */
export type Listing = { entries: readonly Dirent[] } | { error: unknown };

/**
 * How much older than its listing a folder's last change must be for the listing to be kept: past the
 * coarsest timestamps a folder may have (FAT keeps 2 s), so a change in the same tick cannot hide.
 */
const settledMs = 2_000;
/**
 * How long a kept listing is trusted: some network and FUSE file systems do not update a folder's times
 * when its entries change, so what such a folder gained or lost is seen at the latest this long after.
 */
const maxAgeMs = 30_000;
/** Folders remembered at most, over every root; past that the oldest go first. */
const maxFolders = 100_000;

/** The folder a listing was taken of, as lstat saw it just before. */
interface Identity {
  dev: number;
  ino: number;
  ctimeMs: number;
  mtimeMs: number;
}

/** A folder listed before: its listing, kept with what it was taken of, or only that it was listed once. */
type Known = { entries: readonly Dirent[]; of: Identity; keptAt: number } | { entries: null };

const listedOnce: Known = { entries: null };

/** What the listings are timed by: the file system's clock, which a folder's times come from, and a steady one for ages. */
export interface ListingClock {
  wall(): number;
  steady(): number;
}

/**
 * Folder listings kept between walks. A walk lists every folder it enters, each time a model turn lists
 * files, maps the folder or searches it. From a folder's second listing on, its listing is kept with its
 * lstat taken just before (the same folder: dev and ino; the same entries: its times, which any entry
 * added, removed or renamed moves on); a later walk gives the kept listing again while lstat still says
 * so, one lstat instead of a listing three times as dear. A folder listed once is not lstat'ed, so a
 * first walk costs what it did; what changed a moment before its listing, or was kept long ago, is
 * listed again.
 */
export class FolderListings {
  private readonly known = new Map<string, Known>();

  /** By default the real clocks, taken when the module loads: a test that fakes Date moves no folder's times. */
  constructor(private readonly clock: ListingClock = { wall: Date.now, steady: performance.now.bind(performance) }) {}

  list(folder: string): Listing {
    const known = this.known.get(folder);
    // Taken before the listing: a change between the two leaves the folder's times newer than the ones kept.
    const stats = known ? lstatOrNull(folder) : null;
    if (known?.entries && stats && isSame(known.of, stats) && this.clock.steady() - known.keptAt < maxAgeMs) return { entries: known.entries };
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (known) this.known.delete(folder);
      return { error };
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const settled = stats?.isDirectory() && stats.ctimeMs < this.clock.wall() - settledMs;
    this.remember(folder, settled && stats ? { entries, of: identityOf(stats), keptAt: this.clock.steady() } : listedOnce, known !== undefined);
    return { entries };
  }

  /** Lets go of every listing: the next walk lists each folder, as a process's first does. */
  clear(): void {
    this.known.clear();
  }

  /** Remembers a folder as the newest (a Map keeps the order things were set in, so the oldest go first). */
  private remember(folder: string, known: Known, replacing: boolean): void {
    if (replacing) this.known.delete(folder);
    this.known.set(folder, known);
    if (this.known.size > maxFolders) this.known.delete(this.known.keys().next().value!);
  }
}

function identityOf(stats: Stats): Identity {
  return { dev: stats.dev, ino: stats.ino, ctimeMs: stats.ctimeMs, mtimeMs: stats.mtimeMs };
}

function isSame(of: Identity, stats: Stats): boolean {
  return stats.isDirectory() && stats.ino === of.ino && stats.dev === of.dev && stats.ctimeMs === of.ctimeMs && stats.mtimeMs === of.mtimeMs;
}
