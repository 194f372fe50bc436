import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { readlink } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointContents } from '../checkpoints/checkpointStore.js';
import type { FileRecord } from '../checkpoints/workspaceState.js';
import type { DiffSide } from '../diff/fileDiff.js';
import type { DiffJobSide } from '../diff/diffThread.js';
import { maxComparedBytes, tooLarge } from '../diff/textContent.js';
import { readContainedSync } from '../workspace/containedRead.js';
import { specialKind } from '../workspace/heldFolder.js';

/**
 * A side loaded for diffing, with its content's sha256 when it has bytes (to pair a deletion with a
 * creation: a rename). A file read from the folder is hashed only when its hash is asked for.
 */
export interface LoadedSide {
  readonly side: DiffSide;
  readonly hash: string | null;
}

/** Where one side of a change comes from: a checkpoint's record, or the folder as it is now. */
export interface SideSource {
  /** Equal keys mean equal content and mode, so a diff computed once can be reused. */
  readonly key: string;
  /** Bytes, known before loading (0 for a symlink). */
  readonly size: number;
  load(): Promise<LoadedSide>;
  /** For a file the diff worker can read or be given (see diffOffThread): its mode, and what to hand it. */
  readonly offThread?: { mode: number; input(): Promise<DiffJobSide> };
}

/** A file or symlink as a checkpoint recorded it; null for what it could not record. */
export function checkpointSource(contents: CheckpointContents, record: FileRecord | undefined): SideSource | null {
  if (!record || record.type === 'unrecorded') return null;
  if (record.type === 'symlink') return { key: `link:${record.target}`, size: 0, load: async () => ({ side: { kind: 'symlink', target: record.target }, hash: null }) };
  const { mode, size, hash } = record;
  return {
    key: `file:${mode}:${hash}`,
    size,
    offThread: { mode, input: async () => ({ bytes: await contents.read(record) }) },
    async load() {
      if (size > maxComparedBytes) return { side: { kind: 'file', mode, size, notText: tooLarge(size) }, hash };
      try {
        return { side: { kind: 'file', mode, size, bytes: await contents.read(record) }, hash };
      } catch (error) {
        return { side: { kind: 'file', mode, size, notText: `unreadable: the checkpoint's copy could not be read (${(error as Error).message})` }, hash };
      }
    },
  };
}

/**
 * The entry at `rel` (a path a checkpoint scan found: '/' separators, no link on the way) in the folder
 * now; null when nothing (or a folder) is there. A file is read as the checkpoints read it, contained
 * (see readContainedSync), here or on the diff worker.
 */
export async function folderSource(root: string, rel: string): Promise<SideSource | null> {
  const file = path.join(root, ...rel.split('/'));
  // Synchronous, as the contained read: a list looks at thousands of paths, each a promise round trip otherwise.
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(file, { throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  if (!stats || stats.isDirectory()) return null;
  const mode = stats.mode & 0o7777;
  if (stats.isSymbolicLink()) {
    const linkText = await readlink(file).catch(() => null);
    if (linkText === null) return null;
    return { key: `link:${linkText}`, size: 0, load: async () => ({ side: { kind: 'symlink', target: linkText }, hash: null }) };
  }
  const special = specialKind(stats);
  const { size } = stats;
  if (special) return { key: `special:${rel}`, size, load: async () => ({ side: { kind: 'file', mode, size, notText: `unreadable: ${special}` }, hash: null }) };
  return {
    key: `stat:${mode}:${size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`,
    size,
    offThread: { mode, input: async () => ({ file }) },
    async load() {
      if (size > maxComparedBytes) return { side: { kind: 'file', mode, size, notText: tooLarge(size) }, hash: null };
      const read = readContainedSync(file);
      if (typeof read === 'string') return { side: { kind: 'file', mode, size, notText: `unreadable: ${read}` }, hash: null };
      let hash: string | undefined;
      return {
        side: { kind: 'file', mode, size: read.length, bytes: read },
        get hash() {
          return (hash ??= sha256(read));
        },
      };
    },
  };
}

/** What is about to be written (an approval's preview): given bytes and mode. */
export function bytesSource(bytes: Uint8Array, mode: number): SideSource {
  const hash = sha256(bytes);
  return { key: `file:${mode}:${hash}`, size: bytes.length, load: async () => ({ side: { kind: 'file', mode, size: bytes.length, bytes }, hash }) };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
