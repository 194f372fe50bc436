import type { FileHandle } from 'node:fs/promises';

const chunkSize = 64 * 1024;

/**
 * Yields a file's lines as raw bytes (without "\n" or a trailing "\r"), reading in chunks so a huge file
 * is never held whole. Splitting on the byte 0x0A is safe for UTF-8: it never occurs inside a character.
 */
export async function* readLines(handle: FileHandle): AsyncGenerator<Buffer> {
  let carry: Buffer = Buffer.alloc(0);
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(chunkSize);
    const { bytesRead } = await handle.read(chunk, 0, chunkSize, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let data = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    let start = 0;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a, start)) {
      yield withoutCarriageReturn(data.subarray(start, newline));
      start = newline + 1;
    }
    data = data.subarray(start);
    carry = Buffer.from(data);
  }
  if (carry.length) yield withoutCarriageReturn(carry);
}

function withoutCarriageReturn(line: Buffer): Buffer {
  return line.length && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
}

/** Counts lines as editors number them: a last line without "\n" counts too; an empty file has none. */
export async function countLines(handle: FileHandle): Promise<number> {
  const chunk = Buffer.allocUnsafe(chunkSize);
  let lines = 0;
  let endsWithNewline = true;
  for (let position = 0; ; ) {
    const { bytesRead } = await handle.read(chunk, 0, chunkSize, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    lines += newlinesIn(data);
    endsWithNewline = data[bytesRead - 1] === 0x0a;
  }
  return endsWithNewline ? lines : lines + 1;
}

/** countLines for a whole file already in memory. */
export function linesIn(bytes: Buffer): number {
  const lines = newlinesIn(bytes);
  return bytes.length === 0 || bytes[bytes.length - 1] === 0x0a ? lines : lines + 1;
}

function newlinesIn(data: Buffer): number {
  let count = 0;
  for (let at = data.indexOf(0x0a); at !== -1; at = data.indexOf(0x0a, at + 1)) count += 1;
  return count;
}
