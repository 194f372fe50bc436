import type { CheckpointInfo } from './checkpointTypes.js';
import type { HashedFiles } from './hashedFiles.js';
import { infoOf, type Manifests } from './manifests.js';
import { referencedHashes } from './readTrees.js';

export interface CollectOptions {
  manifests: Manifests;
  trees: HashedFiles;
  objects: HashedFiles;
  keep: (info: CheckpointInfo) => boolean;
}

export interface Collected {
  removedCheckpoints: number;
  removedObjects: number;
  /** Ids of the checkpoints removed. */
  removedIds: string[];
}

/**
 * Removes the checkpoints `keep` rejects, then every stored content and folder listing no remaining
 * checkpoint refers to: mark from the manifests, then sweep.
 *
 * Safe against a crash at any point, because the order matches the order a snapshot writes in reverse:
 * a snapshot stores contents and listings before its manifest, and this removes manifests before
 * contents. A crash therefore leaves at worst contents nothing refers to (removed by the next collect),
 * never a manifest that refers to something gone. It must not run beside a snapshot (whose contents have
 * no manifest yet); the store runs both on one queue. A manifest that cannot be read is left in place but
 * protects nothing, as it could not be restored anyway.
 */
export async function collectGarbage({ manifests, trees, objects, keep }: CollectOptions): Promise<Collected> {
  const all = await manifests.readAll();
  const rejected = all.filter((manifest) => !keep(infoOf(manifest)));
  for (const manifest of rejected) await manifests.remove(manifest.id);
  const removedIds = new Set(rejected.map((manifest) => manifest.id));
  const kept = all.filter((manifest) => !removedIds.has(manifest.id));
  const referenced = await referencedHashes(trees, kept.map((manifest) => manifest.root));
  let removedObjects = 0;
  for (const hash of await objects.list()) {
    if (referenced.objects.has(hash)) continue;
    await objects.remove(hash);
    removedObjects += 1;
  }
  for (const hash of await trees.list()) if (!referenced.trees.has(hash)) await trees.remove(hash);
  await manifests.removeStaleTempFiles();
  return { removedCheckpoints: rejected.length, removedObjects, removedIds: [...removedIds] };
}
