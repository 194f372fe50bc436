import { read, readSync, write, writeSync } from 'node:fs';
import { promisify } from 'node:util';

const readOf = promisify(read);
const writeOf = promisify(write);

/**
 * An open file's bytes from its start to its end, read synchronously into a buffer sized for the
 * `expected` bytes a stat gave, and grown should the file have grown since; never more than `cap + 1`
 * bytes, so the caller tells a file past its cap by the length, and a file that keeps growing cannot be
 * read without end.
 */
export function readToEndSync(fd: number, expected: number, cap: number): Buffer {
  let buffer: Buffer = Buffer.allocUnsafe(Math.min(expected, cap) + 1);
  for (let length = 0; ; ) {
    const next = withRoom(buffer, length, cap);
    if (next === null) return buffer;
    buffer = next;
    const count = readSync(fd, buffer, length, buffer.length - length, length);
    if (count === 0) return buffer.subarray(0, length);
    length += count;
  }
}

/** readToEndSync through the thread pool, for a file too large to hold the engine's thread while it is read. */
export async function readToEnd(fd: number, expected: number, cap: number): Promise<Buffer> {
  let buffer: Buffer = Buffer.allocUnsafe(Math.min(expected, cap) + 1);
  for (let length = 0; ; ) {
    const next = withRoom(buffer, length, cap);
    if (next === null) return buffer;
    buffer = next;
    const { bytesRead } = await readOf(fd, buffer, length, buffer.length - length, length);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
}

/** `buffer` with room past its first `length` bytes (grown when full), or null when it holds more than `cap` bytes. */
function withRoom(buffer: Buffer, length: number, cap: number): Buffer | null {
  if (length < buffer.length) return buffer;
  if (length > cap) return null;
  const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, cap + 1));
  buffer.copy(grown, 0, 0, length);
  return grown;
}

/**
 * Writes all of `bytes` at the descriptor's position (a single write may take fewer): up to `syncUpTo`
 * bytes in synchronous calls (into the page cache, microseconds, less than a thread-pool round trip),
 * more through the pool, so a large write never holds the engine's thread.
 */
export async function writeAll(fd: number, bytes: Uint8Array, { syncUpTo = 0 }: { syncUpTo?: number } = {}): Promise<void> {
  let written = 0;
  if (bytes.byteLength <= syncUpTo) {
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written, bytes.byteLength - written);
    return;
  }
  while (written < bytes.byteLength) written += (await writeOf(fd, bytes, written, bytes.byteLength - written, null)).bytesWritten;
}
