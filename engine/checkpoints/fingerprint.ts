import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { forEachLimited } from './forEachLimited.js';
import type { HashedFiles } from './hashedFiles.js';
import { statFields } from './lstatWorker.js';
import { readLargeContent, readSmallContent, type ContentRead } from './readContent.js';
import type { FolderListing, WorkspaceScan } from './scanWorkspace.js';
import { isFolder, isRegularFile, isSymlink, permissionBits, racyWindowMs } from './statRecord.js';
import { shownPath } from '../workspace/unreachable.js';
import { parentOf, type FileContentRecord, type FileRecord, type WorkspaceState } from './workspaceState.js';

export interface FingerprintOptions {
  root: string;
  scan: WorkspaceScan;
  /** The latest checkpoint's state: a file whose lstat still matches its record there is not read again. */
  base: WorkspaceState | null;
  /** Where read contents are stored; null to learn hashes only (to compare the folder with a checkpoint). */
  objects: HashedFiles | null;
  /** When the snapshot began (ms since the epoch), for the racy-clean rule. */
  startedAt: number;
  signal?: AbortSignal;
}

export interface Fingerprint {
  state: WorkspaceState;
  /** Each folder ('' for the root) and what is directly in it, as recorded in `state`. */
  listing: Map<string, FolderListing>;
  /** Paths whose record is not the base's own record object: new, changed, or read again. */
  changed: string[];
  hashedFiles: number;
  newObjects: number;
  notes: string[];
}

/** Large files streamed at once, and symlinks read at once. */
const largeReadsAtOnce = 2;
const linksAtOnce = 8;
/** Small files are read synchronously (see readSmallContent), giving the event loop a turn this often. */
const turnMs = 10;

const unrecorded: FileRecord = { type: 'unrecorded' };

/** What every scanned path holds: records reused from `base` where lstat says nothing changed, the rest read. */
export async function fingerprint(options: FingerprintOptions): Promise<Fingerprint> {
  const records = new Records(options);
  const { toRead, symlinks } = records.reuseUnchanged();
  await records.readFiles(toRead);
  await records.readSymlinks(symlinks);
  return records.result();
}

/** The records of one fingerprint as they are gathered, and what is said about the paths left out. */
class Records {
  private readonly files = new Map<string, FileRecord>();
  private readonly changed: string[] = [];
  private readonly notes: string[] = [];
  private readonly dropped: string[] = [];
  private hashedFiles = 0;
  private newObjects = 0;

  constructor(private readonly options: FingerprintOptions) {}

  /** Takes the base's record of every file lstat says is unchanged; returns the files to read and the symlinks. */
  reuseUnchanged(): { toRead: string[]; symlinks: string[] } {
    const { scan, base } = this.options;
    const { paths, stats } = scan;
    const toRead: string[] = [];
    const symlinks: string[] = [];
    for (let index = 0; index < paths.length; index += 1) {
      const relPath = paths[index]!;
      const at = index * statFields;
      const mode = stats[at]!;
      if (Number.isNaN(mode) || isFolder(mode)) this.drop(relPath, 'vanished or became a folder while the checkpoint was taken');
      else if (isSymlink(mode)) symlinks.push(relPath);
      else if (!isRegularFile(mode)) this.leaveAlone(relPath, 'is not a regular file (a FIFO, socket or device)');
      else {
        const known = base?.files.get(relPath);
        const unchanged = known?.type === 'file' && !known.recheck && known.size === stats[at + 1] && known.mtimeMs === stats[at + 2] && known.ctimeMs === stats[at + 3] && known.ino === stats[at + 4];
        if (!unchanged) toRead.push(relPath);
        else if (known.mode === permissionBits(mode)) this.files.set(relPath, known);
        else this.record(relPath, { ...known, mode: permissionBits(mode) });
      }
    }
    for (const { relPath, reason } of scan.unreachable) {
      moveToFiles(scan.listing, relPath);
      this.leaveAlone(relPath, `cannot be reached (${reason})`);
    }
    return { toRead, symlinks };
  }

  /** Small files synchronously, in turns (see readSmallContent); the large ones then streamed, two at a time. */
  async readFiles(toRead: readonly string[]): Promise<void> {
    const { root, objects, signal } = this.options;
    const large: string[] = [];
    let turnStart = performance.now();
    for (const relPath of toRead) {
      if (performance.now() - turnStart > turnMs) {
        await nextTurn();
        signal?.throwIfAborted();
        turnStart = performance.now();
      }
      const read = readSmallContent(path.join(root, relPath), objects);
      if (read) this.take(relPath, read);
      else large.push(relPath);
    }
    await forEachLimited(large, largeReadsAtOnce, async (relPath) => {
      signal?.throwIfAborted();
      this.take(relPath, await readLargeContent(path.join(root, relPath), objects));
    });
  }

  async readSymlinks(symlinks: readonly string[]): Promise<void> {
    await forEachLimited(symlinks, linksAtOnce, async (relPath) => {
      let target: string;
      try {
        target = await readlink(path.join(this.options.root, relPath));
      } catch {
        return this.drop(relPath, 'vanished or stopped being a symlink while the checkpoint was taken');
      }
      const known = this.options.base?.files.get(relPath);
      if (known?.type === 'symlink' && known.target === target) this.files.set(relPath, known);
      else this.record(relPath, { type: 'symlink', target });
    });
  }

  result(): Fingerprint {
    const { listing } = this.options.scan;
    for (const relPath of this.dropped) dropFromListing(listing, relPath);
    const folders = new Set(listing.keys());
    folders.delete('');
    const folderModes = new Map([...folders].map((folder) => [folder, listing.get(folder)!.mode]));
    const { files, changed, hashedFiles, newObjects, notes } = this;
    return { state: { files, folders, folderModes }, listing, changed, hashedFiles, newObjects, notes };
  }

  private take(relPath: string, read: ContentRead): void {
    if (read.kind === 'gone') return this.drop(relPath, 'vanished or changed kind while being read');
    if (read.kind === 'unreadable') return this.leaveAlone(relPath, `could not be read (${read.reason})`);
    this.hashedFiles += 1;
    if (read.stored) this.newObjects += 1;
    if (!read.steady) this.notes.push(`${relPath} kept changing while being read; it is recorded as last read and will be read again next time.`);
    this.record(relPath, recordOf(read, this.options.startedAt));
  }

  private record(relPath: string, record: FileRecord): void {
    this.files.set(relPath, record);
    this.changed.push(relPath);
  }

  private drop(relPath: string, why: string): void {
    this.dropped.push(relPath);
    this.notes.push(`${relPath} ${why}; it is not recorded.`);
  }

  /** Recorded as a path whose content is unknown, which restore neither rewrites nor removes. */
  private leaveAlone(relPath: string, why: string): void {
    const known = this.options.base?.files.get(relPath);
    if (known?.type === 'unrecorded') this.files.set(relPath, known);
    else this.record(relPath, unrecorded);
    this.notes.push(`${shownPath(relPath)} ${why}; its content is not recorded and restore leaves it alone.`);
  }
}

function recordOf(read: Extract<ContentRead, { kind: 'read' }>, startedAt: number): FileContentRecord {
  const { mode, mtimeMs, ctimeMs, ino } = read.stat;
  const record: FileContentRecord = { type: 'file', mode: permissionBits(mode), hash: read.hash, size: read.size, mtimeMs, ctimeMs, ino };
  const racy = Math.max(mtimeMs, ctimeMs) >= startedAt - racyWindowMs(mtimeMs);
  return racy || !read.steady ? { ...record, recheck: true } : record;
}

/** Leaves out of the listing a path that is not recorded. The scan's arrays are shared with its cache, so they are replaced, never changed. */
function dropFromListing(listing: Map<string, FolderListing>, relPath: string): void {
  const parent = listing.get(parentOf(relPath));
  if (parent) parent.files = parent.files.filter((file) => file !== relPath);
}

/** What could not be reached is recorded as an entry of its own, like a file that could not be read. */
function moveToFiles(listing: Map<string, FolderListing>, unreachable: string): void {
  const parent = listing.get(parentOf(unreachable));
  if (!parent) return;
  parent.folders = parent.folders.filter((relPath) => relPath !== unreachable);
  parent.files = [...parent.files, unreachable];
}
