import * as fs from 'node:fs';
import path from 'node:path';
import { tooLongBelow } from '../workspace/pathLimits.js';
import { fingerprint } from './fingerprint.js';
import { lstatAll, statFields } from './lstatWorker.js';
import type { ListingCache } from './scanWorkspace.js';
import { isFolder, isSymlink } from './statRecord.js';
import { isHiddenName, nameOf, parentOf, type WorkspaceState } from './workspaceState.js';

/** The folder as a scan found it: what it held, and how it sorted out each folder. */
export interface SeenFolder {
  state: WorkspaceState;
  listing: ListingCache;
}

/**
 * The folder as it is now, when only `paths` (files, as the lexical paths a tool call named) can have
 * changed since `seen` was scanned: those are looked at again, everything else is taken from `seen`. Null
 * when that would not be what a scan finds: a path the scan did not walk to (in a folder it did not list,
 * or created with its folders), one a .gitignore leaves out, a .gitignore itself (it changes what else is
 * seen), or one that is now a folder or a symlink (a write through a link changes another path), or a
 * new one its folder lists under another name (another case, on a file system that ignores it).
 */
export async function restatPaths(root: string, seen: SeenFolder, paths: readonly string[]): Promise<{ state: WorkspaceState; hashedFiles: number } | null> {
  const tooLong = tooLongBelow(root);
  if (!paths.every((relPath) => seenByScan(seen.listing, relPath, tooLong))) return null;
  const stats = lstatAll(fs, root, paths);
  const there: number[] = [];
  for (let index = 0; index < paths.length; index += 1) {
    const mode = stats[index * statFields]!;
    if (Number.isNaN(mode)) continue; // gone: left out below
    if (isFolder(mode) || isSymlink(mode) || !listedAs(root, seen.listing, paths[index]!)) return null;
    there.push(index);
  }
  const thereStats = new Float64Array(there.length * statFields);
  there.forEach((from, to) => thereStats.set(stats.subarray(from * statFields, (from + 1) * statFields), to * statFields));
  const scan = { paths: there.map((index) => paths[index]!), stats: thereStats, listing: new Map(), unreachable: [], cache: seen.listing };
  const found = await fingerprint({ root, scan, base: seen.state, objects: null, startedAt: Date.now() });
  const files = new Map(seen.state.files);
  for (const relPath of paths) files.delete(relPath);
  for (const [relPath, record] of found.state.files) files.set(relPath, record);
  const { folders, folderModes } = seen.state;
  return { state: { files, folders: new Set(folders), ...(folderModes ? { folderModes: new Map(folderModes) } : {}) }, hashedFiles: found.hashedFiles };
}

/** Whether a scan would list a file at `relPath`: its folder was walked, and neither a hidden name nor a .gitignore keeps it out. */
function seenByScan(listing: ListingCache, relPath: string, tooLong: (relPath: string) => string | null): boolean {
  if (relPath === '' || relPath.split('/').some((name) => isHiddenName(name) || name === '.gitignore')) return false;
  const folder = listing.get(parentOf(relPath));
  if (!folder || folder.folders.includes(relPath)) return false;
  if (folder.files.includes(relPath)) return true;
  return !folder.names.includes(nameOf(relPath)) && !folder.rules.ignores(relPath, false) && tooLong(relPath) === null;
}

/** Whether its folder lists the file under this very name: known from the scan, else read again (a new file). */
function listedAs(root: string, listing: ListingCache, relPath: string): boolean {
  const parent = parentOf(relPath);
  if (listing.get(parent)?.files.includes(relPath)) return true;
  try {
    return fs.readdirSync(path.join(root, parent)).includes(nameOf(relPath));
  } catch {
    return false;
  }
}
