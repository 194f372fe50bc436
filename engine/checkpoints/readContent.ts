import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { HashedFiles, IncomingFile } from './hashedFiles.js';
import { statRecordOf, type StatRecord } from './statRecord.js';

export type ContentRead =
  /** `stat` is the file as it was opened; `steady`: nothing about it changed while it was read. */
  | { kind: 'read'; hash: string; size: number; stat: StatRecord; steady: boolean; stored: boolean }
  /** Vanished, or no longer the regular file the walk saw (now a folder or a symlink). */
  | { kind: 'gone' }
  | { kind: 'unreadable'; reason: string };

/** Files up to this size are read whole; larger ones are streamed through the hash (and into the store) in pieces of it. */
const pieceBytes = 1 << 20;
const attempts = 3;
// O_NOFOLLOW: a symlink swapped in since the walk is never followed; O_NONBLOCK: a FIFO swapped in cannot hang the open.
const openFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Hashes a workspace file and, given `objects`, stores its content under that hash: what is stored is
 * exactly what was hashed. A file that changes while it is read is read again, up to three times; the
 * last reading is kept, marked unsteady, so the caller can say so and look at it again next time.
 */
export async function readContent(file: string, objects: HashedFiles | null): Promise<ContentRead> {
  for (let attempt = 1; ; attempt += 1) {
    const read = await readOnce(file, objects, attempt === attempts);
    if (read.kind !== 'read' || read.steady || attempt === attempts) return read;
  }
}

async function readOnce(file: string, objects: HashedFiles | null, lastAttempt: boolean): Promise<ContentRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, openFlags);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const before = await handle.stat();
    if (before.isDirectory()) return { kind: 'gone' };
    if (!before.isFile()) return { kind: 'unreadable', reason: 'it is not a regular file' };
    return before.size < pieceBytes ? await readWhole(handle, before, objects, lastAttempt) : await readInPieces(handle, before, objects, lastAttempt);
  } catch (error) {
    if (error instanceof ReadFailure) return { kind: 'unreadable', reason: error.message };
    throw error;
  } finally {
    await handle.close();
  }
}

async function readWhole(handle: FileHandle, before: Stats, objects: HashedFiles | null, lastAttempt: boolean): Promise<ContentRead> {
  const content = await reading(() => handle.readFile());
  const steady = isSteady(before, await reading(() => handle.stat()), content.length);
  const hash = createHash('sha256').update(content).digest('hex');
  const stored = objects !== null && (steady || lastAttempt) ? await objects.putBytes(hash, content) : false;
  return { kind: 'read', hash, size: content.length, stat: statRecordOf(before), steady, stored };
}

async function readInPieces(handle: FileHandle, before: Stats, objects: HashedFiles | null, lastAttempt: boolean): Promise<ContentRead> {
  const hasher = createHash('sha256');
  const piece = Buffer.allocUnsafe(pieceBytes);
  const incoming: IncomingFile | null = objects ? await objects.startWrite() : null;
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await reading(() => handle.read(piece, 0, piece.length, null));
      if (bytesRead === 0) break;
      hasher.update(piece.subarray(0, bytesRead));
      await incoming?.write(piece.subarray(0, bytesRead));
      size += bytesRead;
    }
    const steady = isSteady(before, await reading(() => handle.stat()), size);
    const hash = hasher.digest('hex');
    if (!steady && !lastAttempt) {
      await incoming?.discard();
      return { kind: 'read', hash, size, stat: statRecordOf(before), steady, stored: false };
    }
    const stored = incoming ? await incoming.commit(hash, size) : false;
    return { kind: 'read', hash, size, stat: statRecordOf(before), steady, stored };
  } catch (error) {
    await incoming?.discard();
    throw error;
  }
}

function isSteady(before: Stats, after: Stats, bytesRead: number): boolean {
  return bytesRead === before.size && after.size === before.size && after.mtimeMs === before.mtimeMs && after.ctimeMs === before.ctimeMs;
}

/** An error of the file being read, as opposed to one of the store being written, which must fail the snapshot. */
class ReadFailure extends Error {}

async function reading<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new ReadFailure((error as Error).message);
  }
}

function openFailure(error: unknown): ContentRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'gone' };
  if (code === 'EACCES' || code === 'EPERM') return { kind: 'unreadable', reason: 'permission denied' };
  throw error;
}
