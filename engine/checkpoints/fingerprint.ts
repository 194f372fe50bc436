import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { forEachLimited } from './forEachLimited.js';
import type { HashedFiles } from './hashedFiles.js';
import { statFields } from './lstatWorker.js';
import { readLargeContent, readSmallContent, type ContentRead } from './readContent.js';
import type { FolderListing, WorkspaceScan } from './scanWorkspace.js';
import { isFolder, isRegularFile, isSymlink, permissionBits, racyWindowMs } from './statRecord.js';
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
  const { root, scan, base, objects, startedAt, signal } = options;
  const { paths, stats, listing } = scan;
  const files = new Map<string, FileRecord>();
  const changed: string[] = [];
  const notes: string[] = [];
  const dropped: string[] = [];
  const toRead: string[] = [];
  const symlinks: string[] = [];
  const set = (relPath: string, record: FileRecord) => {
    const known = base?.files.get(relPath);
    const kept = known && record.type !== 'file' && record.type === known.type && (record.type === 'unrecorded' || record.target === (known as typeof record).target);
    files.set(relPath, kept ? known : record);
    if (!kept) changed.push(relPath);
  };

  for (let index = 0; index < paths.length; index += 1) {
    const relPath = paths[index]!;
    const at = index * statFields;
    const mode = stats[at]!;
    if (Number.isNaN(mode) || isFolder(mode)) {
      dropped.push(relPath);
      notes.push(`${relPath} vanished or became a folder while the checkpoint was taken; it is not recorded.`);
    } else if (isSymlink(mode)) symlinks.push(relPath);
    else if (!isRegularFile(mode)) {
      set(relPath, unrecorded);
      notes.push(`${relPath} is not a regular file (a FIFO, socket or device); its content is not recorded and restore leaves it alone.`);
    } else {
      const known = base?.files.get(relPath);
      const unchanged = known?.type === 'file' && !known.recheck && known.size === stats[at + 1] && known.mtimeMs === stats[at + 2] && known.ctimeMs === stats[at + 3] && known.ino === stats[at + 4];
      if (!unchanged) toRead.push(relPath);
      else if (known.mode === permissionBits(mode)) files.set(relPath, known);
      else {
        files.set(relPath, { ...known, mode: permissionBits(mode) });
        changed.push(relPath);
      }
    }
  }
  for (const folder of scan.unlisted) {
    moveToFiles(listing, folder);
    set(folder, unrecorded);
    notes.push(`${folder}/ could not be listed; what is inside is not recorded and restore leaves it alone.`);
  }

  let hashedFiles = 0;
  let newObjects = 0;
  const take = (relPath: string, read: ContentRead) => {
    if (read.kind === 'gone') {
      dropped.push(relPath);
      notes.push(`${relPath} vanished or changed kind while being read; it is not recorded.`);
    } else if (read.kind === 'unreadable') {
      set(relPath, unrecorded);
      notes.push(`${relPath} could not be read (${read.reason}); its content is not recorded and restore leaves it alone.`);
    } else {
      hashedFiles += 1;
      if (read.stored) newObjects += 1;
      if (!read.steady) notes.push(`${relPath} kept changing while being read; it is recorded as last read and will be read again next time.`);
      files.set(relPath, recordOf(read, startedAt));
      changed.push(relPath);
    }
  };
  const large: string[] = [];
  let turnStart = performance.now();
  for (const relPath of toRead) {
    if (performance.now() - turnStart > turnMs) {
      await nextTurn();
      signal?.throwIfAborted();
      turnStart = performance.now();
    }
    const read = readSmallContent(path.join(root, relPath), objects);
    if (read) take(relPath, read);
    else large.push(relPath);
  }
  await forEachLimited(large, largeReadsAtOnce, async (relPath) => {
    signal?.throwIfAborted();
    take(relPath, await readLargeContent(path.join(root, relPath), objects));
  });
  await forEachLimited(symlinks, linksAtOnce, async (relPath) => {
    try {
      set(relPath, { type: 'symlink', target: await readlink(path.join(root, relPath)) });
    } catch {
      dropped.push(relPath);
      notes.push(`${relPath} vanished or stopped being a symlink while the checkpoint was taken; it is not recorded.`);
    }
  });

  for (const relPath of dropped) dropFromListing(listing, relPath);
  const folders = new Set(listing.keys());
  folders.delete('');
  return { state: { files, folders }, listing, changed, hashedFiles, newObjects, notes };
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

/** A folder that could not be listed is recorded as an entry of its own, like a file that could not be read. */
function moveToFiles(listing: Map<string, FolderListing>, folder: string): void {
  const parent = listing.get(parentOf(folder));
  if (!parent) return;
  parent.folders = parent.folders.filter((relPath) => relPath !== folder);
  parent.files = [...parent.files, folder];
}
