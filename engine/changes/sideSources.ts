import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointContents } from '../checkpoints/checkpointStore.js';
import type { FileRecord } from '../checkpoints/workspaceState.js';
import type { DiffSide } from '../diff/fileDiff.js';
import { maxComparedBytes, tooLarge } from '../diff/textContent.js';
import { specialKind } from '../workspace/heldFolder.js';

/** A side loaded for diffing, with its content's sha256 when it has bytes (to pair a deletion with a creation: a rename). */
export interface LoadedSide {
  side: DiffSide;
  hash: string | null;
}

/** Where one side of a change comes from: a checkpoint's record, or the folder as it is now. */
export interface SideSource {
  /** Equal keys mean equal content and mode, so a diff computed once can be reused. */
  readonly key: string;
  /** Bytes, known before loading (0 for a symlink). */
  readonly size: number;
  load(): Promise<LoadedSide>;
}

/** A file or symlink as a checkpoint recorded it; null for what it could not record. */
export function checkpointSource(contents: CheckpointContents, record: FileRecord | undefined): SideSource | null {
  if (!record || record.type === 'unrecorded') return null;
  if (record.type === 'symlink') return { key: `link:${record.target}`, size: 0, load: async () => ({ side: { kind: 'symlink', target: record.target }, hash: null }) };
  const { mode, size, hash } = record;
  return {
    key: `file:${mode}:${hash}`,
    size,
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
 * now; null when nothing (or a folder) is there. A file is read as the checkpoints read it: opened without
 * following a link or waiting on a FIFO, and only when the descriptor is really at that path inside the
 * folder (a folder swapped for a symlink since reads nothing) and the file has no other name.
 */
export async function folderSource(root: string, rel: string): Promise<SideSource | null> {
  const file = path.join(root, ...rel.split('/'));
  const stats = await lstat(file).catch(() => null);
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
    async load() {
      if (size > maxComparedBytes) return { side: { kind: 'file', mode, size, notText: tooLarge(size) }, hash: null };
      const read = await readInFolder(file);
      if (typeof read === 'string') return { side: { kind: 'file', mode, size, notText: `unreadable: ${read}` }, hash: null };
      return { side: { kind: 'file', mode, size: read.length, bytes: read }, hash: sha256(read) };
    },
  };
}

// O_NOFOLLOW: a symlink swapped in is never followed; O_NONBLOCK: a FIFO swapped in cannot hang the open.
const readFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The bytes of a regular file with one name at exactly `file`, or why they cannot be read. */
async function readInFolder(file: string): Promise<Buffer | string> {
  let handle;
  try {
    handle = await open(file, readFlags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'it became a symlink' : code === 'ENOENT' ? 'it is gone' : (error as Error).message;
  }
  try {
    // Where the descriptor really is (Linux): a folder on the way swapped for a symlink would lead elsewhere.
    const actual = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => file);
    if (actual !== file) return 'it moved while being read';
    const stats = await handle.stat();
    if (!stats.isFile()) return 'it is not a regular file';
    if (stats.nlink > 1) return `it has ${stats.nlink} hard links, and another name may be outside the project folder`;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** What is about to be written (an approval's preview): given bytes and mode. */
export function bytesSource(bytes: Uint8Array, mode: number): SideSource {
  const hash = sha256(bytes);
  return { key: `file:${mode}:${hash}`, size: bytes.length, load: async () => ({ side: { kind: 'file', mode, size: bytes.length, bytes }, hash }) };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
