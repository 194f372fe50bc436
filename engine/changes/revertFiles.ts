import type { RevertResult, RevertedFile } from '../contract/changes.js';
import type { CheckpointContents, CheckpointStore, CheckpointTag } from '../checkpoints/checkpointStore.js';
import { CheckpointError } from '../checkpoints/checkpointTypes.js';
import type { PendingWrites } from '../store/pendingWrites.js';
import { lexicalPath } from '../workspace/pathRules.js';
import { putBack, type WantedEntry } from './putBack.js';
import { sha256 } from './sideSources.js';

export interface RevertOptions {
  root: string;
  checkpoints: Pick<CheckpointStore, 'snapshot'>;
  /** The checkpoint whose files are put back. */
  from: CheckpointContents;
  /** Paths as the user gave them, relative to the folder. */
  paths: readonly string[];
  /** How the checkpoint taken first is tagged (the latest request, so undo and collection keep it). */
  tag: CheckpointTag;
  journal: PendingWrites | null;
}

/**
 * Puts files back as checkpoint `from` has them — its content, mode or symlink, or no file where it had
 * none — after a checkpoint of the folder as it is, so the revert itself can be taken back (its id is
 * `revertId`). Every stored content is checked against its hash before anything changes.
 */
export async function revertFiles({ root, checkpoints, from, paths, tag, journal }: RevertOptions): Promise<RevertResult> {
  const targets = [...new Set(paths.map((requested) => lexicalPath(requested, root)))].filter((rel) => rel !== '');
  const wanted = new Map<string, WantedEntry>();
  for (const rel of targets) wanted.set(rel, await wantedEntry(from, rel));
  const { id } = await checkpoints.snapshot(tag);
  const files: RevertedFile[] = [];
  for (const [rel, entry] of wanted) files.push({ path: rel, change: await putBack({ root, relPath: rel, wanted: entry, journal }) });
  return { files, revertId: id };
}

async function wantedEntry(from: CheckpointContents, rel: string): Promise<WantedEntry> {
  const record = from.files.get(rel);
  if (!record) return null;
  if (record.type === 'unrecorded') throw new CheckpointError(`${rel} could not be recorded then (unreadable, or not a regular file), so it cannot be put back.`);
  if (record.type === 'symlink') return { kind: 'symlink', target: record.target };
  const bytes = await from.read(record).catch((error: unknown) => {
    throw new CheckpointError(`The stored copy of ${rel} cannot be read (${(error as Error).message}); nothing was changed.`);
  });
  if (bytes.length !== record.size || sha256(bytes) !== record.hash) throw new CheckpointError(`The stored copy of ${rel} is damaged; nothing was changed.`);
  return { kind: 'file', mode: record.mode, bytes };
}
