import { closeSync, constants, fstatSync, openSync, readlinkSync } from 'node:fs';
import { readToEndSync } from '../files/wholeBytes.js';
import { holdsByDescriptor } from './heldFolder.js';
import { isInside } from './pathRules.js';

const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = constants;

/** Folders kept open between reads; past it the one held longest is closed. */
const heldFolders = 32;

/**
 * Reads small files of the workspace synchronously, with the same guarantees as Workspace.openForRead:
 * each file's folder is reached from the root one folder at a time by descriptor, never following a
 * link (openat through `/proc/self/fd/<fd>/<name>`, as HeldFolder does), and the file is opened in it
 * without following a link or waiting on a FIFO, and read only when it is a regular file with no other
 * name that really is inside the root. For many small files (the line counts of a file map) the
 * thread-pool round trips of doing so asynchronously, a dozen a file, cost far more than the reading:
 * here a file is a handful of system calls of microseconds. The caller keeps each batch of reads short,
 * so the engine's thread is never held long.
 *
 * Linux only (`/proc/self/fd`): `open` answers null elsewhere, and callers read asynchronously.
 */
export class SmallFileReader {
  /** Descriptors of folders reached, by path from the root ('' for the root), oldest first. */
  private readonly folders = new Map<string, number>();
  /** After close() every read answers null, so a straggler reopens no folder. */
  private closed = false;

  private constructor(private readonly root: string) {}

  static open(root: string): SmallFileReader | null {
    return holdsByDescriptor ? new SmallFileReader(root) : null;
  }

  /**
   * The whole of file `relPath` (from the root, '/' separators), when it is a plain file of at most
   * `maxBytes`; null when it is not (missing, a link on the way or at the end, special, hard-linked,
   * larger, or unreadable), for the caller to read it the careful way and say why.
   */
  read(relPath: string, maxBytes: number): Buffer | null {
    if (this.closed || relPath.split('/').some((name) => name === '' || name === '.' || name === '..')) return null;
    const slash = relPath.lastIndexOf('/');
    const folder = this.folder(slash === -1 ? '' : relPath.slice(0, slash));
    if (folder === null) return null;
    let fd: number;
    try {
      fd = openSync(`/proc/self/fd/${folder}/${relPath.slice(slash + 1)}`, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
      return null;
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.nlink !== 1 || stats.size > maxBytes) return null;
      // Where the file really is, which no later rename can change: a held folder moved out since is caught.
      if (!isInside(this.root, readlinkSync(`/proc/self/fd/${fd}`))) return null;
      const bytes = readToEndSync(fd, stats.size, stats.size);
      // Grown since the stat: read the careful way, which judges it as it is then.
      return bytes.length > stats.size ? null : bytes;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  /** Closes every folder held; the reader reads nothing after. */
  close(): void {
    this.closed = true;
    for (const fd of this.folders.values()) closeSync(fd);
    this.folders.clear();
  }

  /** The descriptor of folder `relDir`, reached from the root without following a link; null when it cannot be. */
  private folder(relDir: string): number | null {
    const held = this.folders.get(relDir);
    if (held !== undefined) return held;
    let fd: number;
    try {
      if (relDir === '') fd = openSync(this.root, O_RDONLY | O_DIRECTORY);
      else {
        const slash = relDir.lastIndexOf('/');
        const parent = this.folder(slash === -1 ? '' : relDir.slice(0, slash));
        if (parent === null) return null;
        fd = openSync(`/proc/self/fd/${parent}/${relDir.slice(slash + 1)}`, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
      }
    } catch {
      return null;
    }
    if (this.folders.size >= heldFolders) {
      const [oldest, oldestFd] = this.folders.entries().next().value as [string, number];
      this.folders.delete(oldest);
      closeSync(oldestFd);
    }
    this.folders.set(relDir, fd);
    return fd;
  }
}
