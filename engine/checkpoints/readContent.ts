import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, readlinkSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { HashedFiles } from './hashedFiles.js';
import type { IncomingFile } from './incomingFile.js';
import { statRecordOf, type StatRecord } from './statRecord.js';

export type ContentRead =
  /** `stat` is the file as it was opened; `steady`: nothing about it changed while it was read. */
  | { kind: 'read'; hash: string; size: number; stat: StatRecord; steady: boolean; stored: boolean }
  /** Vanished, or no longer the regular file the walk saw (now a folder or a symlink). */
  | { kind: 'gone' }
  | { kind: 'unreadable'; reason: string };

/** Files below this size are read whole, synchronously; larger ones are streamed through the hash (and into the store) in pieces of it. */
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
  return readSmallContent(file, objects) ?? (await readLargeContent(file, objects));
}

/**
 * readContent for a file under 1 MiB, synchronously: for the few changed files of a snapshot, and the
 * many of a first one, the promise round trips of open, stat, read and close cost more than the reading.
 * Null when the file is larger; readLargeContent streams those.
 */
export function readSmallContent(file: string, objects: HashedFiles | null): ContentRead | null {
  for (let attempt = 1; ; attempt += 1) {
    const read = readSmallOnce(file, objects, attempt === attempts);
    if (read?.kind !== 'read' || read.steady || attempt === attempts) return read;
  }
}

/** readContent for a file of any size, streamed in pieces of 1 MiB, never held whole. */
export async function readLargeContent(file: string, objects: HashedFiles | null): Promise<ContentRead> {
  for (let attempt = 1; ; attempt += 1) {
    const read = await readLargeOnce(file, objects, attempt === attempts);
    if (read.kind !== 'read' || read.steady || attempt === attempts) return read;
  }
}

function readSmallOnce(file: string, objects: HashedFiles | null, lastAttempt: boolean): ContentRead | null {
  let fd: number;
  try {
    fd = openSync(file, openFlags);
  } catch (error) {
    return openFailure(error);
  }
  try {
    if (!opensWhereExpected(fd, file)) return { kind: 'gone' };
    const before = fstatSync(fd);
    const kind = notRegular(before);
    if (kind) return kind;
    if (before.size >= pieceBytes) return null;
    const content = reading(() => readToEnd(fd, before.size));
    const steady = isSteady(before, reading(() => fstatSync(fd)), content.length);
    const hash = createHash('sha256').update(content).digest('hex');
    const stored = objects !== null && (steady || lastAttempt) ? objects.putBytes(hash, content) : false;
    return { kind: 'read', hash, size: content.length, stat: statRecordOf(before), steady, stored };
  } catch (error) {
    if (error instanceof ReadFailure) return { kind: 'unreadable', reason: error.message };
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** All bytes to the end, however many there are by now; one read when the file still has `expected`. */
function readToEnd(fd: number, expected: number): Buffer {
  let buffer = Buffer.allocUnsafe(expected + 1);
  let length = 0;
  for (;;) {
    const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
    if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
  }
}

async function readLargeOnce(file: string, objects: HashedFiles | null, lastAttempt: boolean): Promise<ContentRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, openFlags);
  } catch (error) {
    return openFailure(error);
  }
  try {
    if (!opensWhereExpected(handle.fd, file)) return { kind: 'gone' };
    const before = await handle.stat();
    return notRegular(before) ?? (await readInPieces(handle, before, objects, lastAttempt));
  } catch (error) {
    if (error instanceof ReadFailure) return { kind: 'unreadable', reason: error.message };
    throw error;
  } finally {
    await handle.close();
  }
}

async function readInPieces(handle: FileHandle, before: Stats, objects: HashedFiles | null, lastAttempt: boolean): Promise<ContentRead> {
  const hasher = createHash('sha256');
  const piece = Buffer.allocUnsafe(pieceBytes);
  const incoming: IncomingFile | null = objects ? await objects.startWrite() : null;
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await readingAsync(() => handle.read(piece, 0, piece.length, null));
      if (bytesRead === 0) break;
      hasher.update(piece.subarray(0, bytesRead));
      await incoming?.write(piece.subarray(0, bytesRead));
      size += bytesRead;
    }
    const steady = isSteady(before, await readingAsync(() => handle.stat()), size);
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

function notRegular(stats: Stats): ContentRead | null {
  if (stats.isDirectory()) return { kind: 'gone' };
  if (!stats.isFile()) return { kind: 'unreadable', reason: 'it is not a regular file' };
  return null;
}

function isSteady(before: Stats, after: Stats, bytesRead: number): boolean {
  return bytesRead === before.size && after.size === before.size && after.mtimeMs === before.mtimeMs && after.ctimeMs === before.ctimeMs;
}

/** An error of the file being read, as opposed to one of the store being written, which must fail the snapshot. */
class ReadFailure extends Error {}

function reading<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    throw new ReadFailure((error as Error).message);
  }
}

async function readingAsync<T>(operation: () => Promise<T>): Promise<T> {
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

/**
 * Whether the opened file is really at `file` (a real path: the root is one, and a scan records no
 * symlink as a folder). O_NOFOLLOW guards only the last step; a folder on the way swapped for a symlink
 * since the walk would lead the read outside, and what it read would be stored and later restored. Where
 * /proc is missing (macOS, Windows) the check is skipped.
 */
function opensWhereExpected(fd: number, file: string): boolean {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === file;
  } catch {
    return true;
  }
}
