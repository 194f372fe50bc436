import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';

/** A folder's entries sorted by name, as a walk goes through them, or why they could not be listed. */
export type Listing = { entries: Dirent[] } | { error: unknown };

/**
 * How long a folder must have stood unchanged before its listing is kept: past the coarsest timestamps
 * a folder may have (FAT keeps 2 s), so a change in the same tick as the listing cannot hide behind it.
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
  dev: number;
  ino: number;
  ctimeMs: number;
  mtimeMs: number;
  listedAt: number;
  entries: Dirent[];
}

/**
 * Folder listings kept between walks. A walk lists every folder it enters, each time a model turn lists
 * files, maps the folder or searches it; a listing is kept and given again while the folder's lstat
 * says it is the same folder with the same change time, which any entry added, removed or renamed in it
 * moves on (the change time cannot be set back, unlike the modification time). One lstat costs a third
 * of a listing. What changed a moment before it was listed, or was listed long ago, is listed again.
 */
export class FolderListings {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = Date.now) {}

  list(folder: string): Listing {
    const stats = lstatOrNull(folder);
    const now = this.now();
    const known = this.kept.get(folder);
    if (known && stats && sameFolder(known, stats) && now - known.listedAt < maxAgeMs) return { entries: known.entries };
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      this.kept.delete(folder);
      return { error };
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // The lstat came before the listing: a change between them leaves the kept times older than the folder's, so it is listed again.
    if (stats?.isDirectory() && stats.ctimeMs < now - settledMs) this.keep(folder, { dev: stats.dev, ino: stats.ino, ctimeMs: stats.ctimeMs, mtimeMs: stats.mtimeMs, listedAt: now, entries });
    else this.kept.delete(folder);
    return { entries };
  }

  private keep(folder: string, kept: Kept): void {
    this.kept.delete(folder);
    this.kept.set(folder, kept);
    if (this.kept.size > maxFolders) this.kept.delete(this.kept.keys().next().value!);
  }
}

function sameFolder(known: Kept, stats: Stats): boolean {
  return stats.isDirectory() && stats.ino === known.ino && stats.dev === known.dev && stats.ctimeMs === known.ctimeMs && stats.mtimeMs === known.mtimeMs;
}

function lstatOrNull(folder: string): Stats | null {
  try {
    return lstatSync(folder);
  } catch {
    return null;
  }
}
