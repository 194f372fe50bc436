import { readSync } from 'node:fs';

/**
 * An open file's bytes from its start to its end, read synchronously into a buffer sized for the
 * `expected` bytes a stat gave, and grown should the file have grown since; never more than `cap + 1`
 * bytes, so the caller tells a file past its cap by the length, and a file that keeps growing cannot be
 * read without end.
 */
export function readToEndSync(fd: number, expected: number, cap: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(expected, cap) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > cap) return buffer;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, cap + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
  }
}
