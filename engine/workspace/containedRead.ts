import fs from 'node:fs';

/**
 * The bytes of a regular file with one name at exactly `file` inside the project folder, or why they
 * cannot be read: opened without following a symlink (O_NOFOLLOW) or waiting on a FIFO (O_NONBLOCK), and
 * only when the descriptor is really at that path (Linux: a folder on the way swapped for a symlink since
 * the walk would lead elsewhere) and the file has no other name (a hard link may reach outside the
 * folder). Synchronous: the diff worker reads its files with it, and on the engine's thread a small file
 * costs less read this way than through four promise round trips.
 */
export function readContainedSync(file: string): Uint8Array | string {
  const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'it became a symlink' : code === 'ENOENT' ? 'it is gone' : (error as Error).message;
  }
  try {
    let actual = file;
    try {
      actual = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // no /proc (not Linux): the open's O_NOFOLLOW is the guard
    }
    if (actual !== file) return 'it moved while being read';
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return 'it is not a regular file';
    if (stats.nlink > 1) return `it has ${stats.nlink} hard links, and another name may be outside the project folder`;
    return fs.readFileSync(fd);
  } catch (error) {
    return (error as Error).message;
  } finally {
    fs.closeSync(fd);
  }
}
