import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { readToEndSync } from './wholeBytes.js';

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = constants;

/**
 * The text of a small regular file, read synchronously (a handful of system calls of microseconds, where
 * asynchronously each is a thread-pool round trip); null when it is missing, not a regular file, larger
 * than `maxBytes`, refused by `accept` (given its open descriptor and stats), or unreadable. Opened without
 * waiting (O_NONBLOCK), so a planted FIFO cannot hang the engine; with `followLink: false` a link at its
 * end is not followed.
 */
export function readSmallTextSync(
  file: string,
  maxBytes: number,
  { followLink = true, accept = () => true }: { followLink?: boolean; accept?: (fd: number, stats: Stats) => boolean } = {},
): string | null {
  let fd: number;
  try {
    fd = openSync(file, O_RDONLY | O_NONBLOCK | (followLink ? 0 : O_NOFOLLOW));
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes || !accept(fd, stats)) return null;
    const bytes = readToEndSync(fd, stats.size, maxBytes);
    return bytes.length > maxBytes ? null : bytes.toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
