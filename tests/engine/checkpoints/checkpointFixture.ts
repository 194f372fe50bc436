import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { vi } from 'vitest';
import { CheckpointStore, type CheckpointTag } from '../../../engine/checkpoints/checkpointStore.js';
import { writeTree } from '../../support/tempFolder.js';

export const runTag: CheckpointTag = { reason: 'run', messageId: 'm1' };
export const toolTag: CheckpointTag = { reason: 'tool', messageId: 'm1', runId: 'r1', tool: 'write_file' };

/** A project folder with `files`, and its checkpoint store where the engine keeps it: `.workbench/checkpoints/`. */
export async function projectWith(tempFolder: () => Promise<string>, files: Record<string, string> = {}): Promise<{ root: string; store: CheckpointStore }> {
  const root = await tempFolder();
  await writeTree(root, files);
  return { root, store: await CheckpointStore.open(root, path.join(root, '.workbench')) };
}

export const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

/** The checkpoint store of the project at `root`. */
export const checkpointsOf = (root: string): string => path.join(root, '.workbench', 'checkpoints');

/** Where the store writes a content or listing: `.workbench/checkpoints/<kind>/<hash>` (`.gz` added when gzipped). */
export function storedPath(root: string, kind: 'objects' | 'trees', hash: string): string {
  return path.join(checkpointsOf(root), kind, hash);
}

/** Where stores written before kept a content or listing: under a two-character subfolder, `ab/cdef…`. */
export function legacyStoredPath(root: string, kind: 'objects' | 'trees', hash: string): string {
  return path.join(checkpointsOf(root), kind, hash.slice(0, 2), hash.slice(2));
}

/** Hashes of every stored file content, stored as it is or gzipped, in either layout. */
export async function storedHashes(root: string): Promise<string[]> {
  const objects = path.join(checkpointsOf(root), 'objects');
  const hashes = new Set<string>();
  for (const name of await readdir(objects).catch(() => [])) {
    const own = /^([0-9a-f]{64})(\.gz)?$/.exec(name);
    if (own) hashes.add(own[1]!);
    if (!/^[0-9a-f]{2}$/.test(name)) continue;
    for (const rest of await readdir(path.join(objects, name))) if (/^[0-9a-f]{62}(\.gz)?$/.test(rest)) hashes.add(name + rest.slice(0, 62));
  }
  return [...hashes].sort();
}

/**
 * Moves the clock the store reads (Date, not the file system's) `ms` ahead, as if the next snapshot came
 * that much later: files written before then are no longer too recent to be trusted by size and times.
 * Undo with vi.useRealTimers().
 */
export function clockAhead(ms: number): void {
  clockAt(Date.now() + ms);
}

/** Sets the clock the store reads (Date, not the file system's) to `ms` since the epoch, and stops it there. */
export function clockAt(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}
