import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { removeStaleTempFiles, writeFileAtomic } from '../files/atomicWrite.js';
import { readStateText } from '../store/stateFile.js';
import { checkpointTagSchema, type CheckpointInfo } from './checkpointTypes.js';
import { hashSchema } from './treeNode.js';

/** Milliseconds since the epoch, 13 digits, then 6 random hex digits: ids sort by time as text. */
const idPattern = /^(\d{13})-[0-9a-f]{6}$/;

const manifestSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(idPattern),
  createdAt: z.number(),
  tag: checkpointTagSchema,
  /** Hash of the root folder's listing. */
  root: hashSchema,
  fileCount: z.number().int().nonnegative(),
  newObjects: z.number().int().nonnegative(),
  hashedFiles: z.number().int().nonnegative(),
  notes: z.array(z.string()),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const isCheckpointId = (id: string) => idPattern.test(id);

export function infoOf({ version: _version, root: _root, ...info }: Manifest): CheckpointInfo {
  return info;
}

/**
 * One JSON file per checkpoint (`<id>.json`), written atomically and fsynced after the contents and
 * listings it refers to are in place; a checkpoint exists once its manifest does. The latest one is the
 * greatest id, so finding it costs one listing of this folder.
 */
export class Manifests {
  /**
   * Manifests read so far, by id: one never changes once written, so a listing reads only new ones, and
   * the checkpoint a run's changes start from is read once, not at every recount of them.
   */
  private readonly listed = new Map<string, Manifest>();
  /** Ids removed by this store (ids are never reused): a listing that ran beside the removal must not bring one back. */
  private readonly removed = new Set<string>();
  /** Manifest files read from disk, for the tests that hold the store to reading each once. */
  filesRead = 0;

  constructor(readonly dir: string) {}

  /** An id greater than `latest` and than any other this store gave, even if the clock went back. */
  nextId(latest: string | null): string {
    const latestMs = latest ? Number(idPattern.exec(latest)?.[1] ?? 0) : 0;
    const ms = Math.max(Date.now(), latestMs + 1);
    return `${String(ms).padStart(13, '0')}-${randomBytes(3).toString('hex')}`;
  }

  createdAtOf(id: string): number {
    return Number(idPattern.exec(id)?.[1] ?? 0);
  }

  async write(manifest: Manifest): Promise<void> {
    await writeFileAtomic(this.fileOf(manifest.id), `${JSON.stringify(manifestSchema.parse(manifest), null, 1)}\n`);
  }

  /** The manifest, null when there is none by that id; throws when the file is there but not a valid manifest. */
  async read(id: string): Promise<Manifest | null> {
    if (!isCheckpointId(id) || this.removed.has(id)) return null;
    const known = this.listed.get(id);
    if (known) return known;
    this.filesRead += 1;
    const text = await readStateText(this.fileOf(id));
    if (text === null) return null;
    const parsed = manifestSchema.safeParse(parseJson(text));
    if (!parsed.success || parsed.data.id !== id) throw new Error(`checkpoint manifest ${id}.json is damaged`);
    this.listed.set(id, parsed.data);
    return parsed.data;
  }

  /** Ids of every manifest file, oldest first. */
  async ids(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.flatMap((name) => (name.endsWith('.json') && isCheckpointId(name.slice(0, -5)) ? [name.slice(0, -5)] : [])).sort();
  }

  /**
   * Every readable manifest, oldest first; damaged ones are left out (and left in place). Each is read from
   * disk once: a long run lists the checkpoints after every change, and it takes one per tool call.
   */
  async readAll(): Promise<Manifest[]> {
    const ids = await this.ids();
    const manifests = await Promise.all(ids.map((id) => this.read(id).catch(() => null)));
    this.listed.clear();
    const kept = manifests.filter((manifest): manifest is Manifest => manifest !== null && !this.removed.has(manifest.id));
    for (const manifest of kept) this.listed.set(manifest.id, manifest);
    return kept;
  }

  async remove(id: string): Promise<void> {
    this.removed.add(id);
    this.listed.delete(id);
    await rm(this.fileOf(id), { force: true });
  }

  removeStaleTempFiles(): Promise<string[]> {
    return removeStaleTempFiles(this.dir);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
