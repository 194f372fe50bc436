import { CheckpointError } from './checkpointTypes.js';
import { forEachLimited } from './forEachLimited.js';
import type { HashedFiles } from './hashedFiles.js';
import type { Manifests } from './manifests.js';
import { readState } from './readTrees.js';
import type { WorkspaceState } from './workspaceState.js';
import type { StoredState } from './writeTrees.js';

/** The newest checkpoint: its id, and its workspace when that can be read back (null when it cannot). */
export interface LatestCheckpoint {
  id: string;
  stored: StoredState | null;
}

export interface StoreFolders {
  manifests: Manifests;
  trees: HashedFiles;
  objects: HashedFiles;
}

/**
 * Reads the newest checkpoint back from disk, for the next snapshot to build on. A damaged one is not
 * an error here: the snapshot then reads every file, as the first one did.
 */
export async function readLatestCheckpoint({ manifests, trees, objects }: StoreFolders): Promise<LatestCheckpoint | null> {
  const id = (await manifests.ids()).at(-1);
  if (id === undefined) return null;
  const manifest = await manifests.read(id).catch(() => null);
  if (!manifest) return { id, stored: null };
  try {
    const stored = await readState(trees, manifest.root);
    await markMissingContents(stored.state, objects);
    return { id, stored };
  } catch (error) {
    if (error instanceof CheckpointError) return { id, stored: null };
    throw error;
  }
}

/**
 * Contents are not fsynced (see HashedFiles), so after a power cut one may be short. Its record is marked
 * for a recheck, so the next snapshot reads the file and stores the content again rather than refer to it.
 */
async function markMissingContents(state: WorkspaceState, objects: HashedFiles): Promise<void> {
  await forEachLimited([...state.files], 16, async ([relPath, record]) => {
    if (record.type === 'file' && !(await objects.has(record.hash, record.size))) state.files.set(relPath, { ...record, recheck: true });
  });
}
