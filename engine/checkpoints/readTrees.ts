import { CheckpointError } from './checkpointTypes.js';
import { forEachLimited } from './forEachLimited.js';
import type { HashedFiles } from './hashedFiles.js';
import { decodeTree, recordOf, type TreeEntry } from './treeNode.js';
import { joinPath, type FileRecord } from './workspaceState.js';
import type { StoredState, TreeIndex } from './writeTrees.js';

const readsAtOnce = 16;

/**
 * The workspace a checkpoint recorded, from its root listing down. Every listing is checked against its
 * hash and its shape, and every name must stay inside its folder, so a tampered or damaged checkpoint is
 * refused as a whole before anything is restored from it.
 */
export async function readState(trees: HashedFiles, rootHash: string): Promise<StoredState> {
  const files = new Map<string, FileRecord>();
  const folders = new Set<string>();
  const folderModes = new Map<string, number>();
  const index: TreeIndex = new Map();
  const load = listingReader(trees);
  let level: [folder: string, hash: string][] = [['', rootHash]];
  while (level.length > 0) {
    const next: typeof level = [];
    await forEachLimited(level, readsAtOnce, async ([folder, hash]) => {
      const entries = await load(hash);
      index.set(folder, { hash, childCount: entries.length });
      for (const entry of entries) {
        const relPath = joinPath(folder, entry.name);
        if (entry.type === 'folder') {
          folders.add(relPath);
          if (entry.mode !== undefined) folderModes.set(relPath, entry.mode);
          next.push([relPath, entry.tree]);
        } else files.set(relPath, recordOf(entry));
      }
    });
    level = next;
  }
  return { state: { files, folders, folderModes }, index };
}

/**
 * Every folder listing and file content the checkpoints rooted at `rootHashes` refer to; each listing is
 * read once. A missing or damaged listing is passed over; any other error (the disk, not the data) is thrown.
 */
export async function referencedHashes(trees: HashedFiles, rootHashes: readonly string[]): Promise<{ trees: Set<string>; objects: Set<string> }> {
  const seenTrees = new Set<string>();
  const objects = new Set<string>();
  const load = listingReader(trees);
  let level = [...new Set(rootHashes)];
  while (level.length > 0) {
    const next: string[] = [];
    level.forEach((hash) => seenTrees.add(hash));
    await forEachLimited(level, readsAtOnce, async (hash) => {
      let entries: TreeEntry[];
      try {
        entries = await load(hash);
      } catch (error) {
        if (error instanceof CheckpointError) return; // a damaged checkpoint cannot be restored, so what only it refers to may go
        throw error;
      }
      for (const entry of entries) {
        if (entry.type === 'file') objects.add(entry.hash);
        else if (entry.type === 'folder' && !seenTrees.has(entry.tree)) {
          seenTrees.add(entry.tree);
          next.push(entry.tree);
        }
      }
    });
    level = next;
  }
  return { trees: seenTrees, objects };
}

/** Reads listings by hash, each at most once (equal folders, e.g. empty ones, share one). */
function listingReader(trees: HashedFiles): (hash: string) => Promise<TreeEntry[]> {
  const loaded = new Map<string, Promise<TreeEntry[]>>();
  return (hash) => {
    let entries = loaded.get(hash);
    if (!entries) {
      entries = readListing(trees, hash);
      loaded.set(hash, entries);
    }
    return entries;
  };
}

async function readListing(trees: HashedFiles, hash: string): Promise<TreeEntry[]> {
  let bytes: Buffer;
  try {
    bytes = await trees.read(hash);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CheckpointError(`The checkpoint is incomplete: folder listing ${hash} is missing.`);
    throw error;
  }
  try {
    return decodeTree(hash, bytes);
  } catch (error) {
    throw new CheckpointError(`The checkpoint cannot be trusted: ${(error as Error).message}.`);
  }
}
