import { closeSync, constants, fdatasync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { readToEndSync } from '../files/wholeBytes.js';
import { openPlainSync, syncReadBytes } from './stateFile.js';

const fdatasyncOf = promisify(fdatasync);

/** Why a file cannot be opened for writing where it lies, while a rename over it may still be allowed. */
const notWritableInPlace = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Writes `after` over a small state file that holds `before`, when the two differ in exactly one byte (a
 * plan item's checkbox: `[ ]` to `[x]`): that byte is written where it lies and the data synced, instead of
 * a temp file, a rename and two fsyncs (see writeFileAtomic). A one-byte write lies within one sector, which
 * a disk writes whole, so after a crash the file holds either text, as with a rename.
 *
 * Nothing is changed, and false returned, for the caller to write the whole file, when: the edit is not one
 * byte; the file is larger than a synchronous read takes; it no longer holds `before` (checked on the
 * descriptor that is written); it may not be opened for writing (read-only, immutable); the platform
 * cannot refuse a symlink at the open (no O_NOFOLLOW: Windows); or the sync fails (the byte is put back
 * first). Otherwise it is opened with the refusals of every state file (no symlink, FIFO or other hard link).
 */
export async function writeOneByteEdit(file: string, before: string, after: string): Promise<boolean> {
  const old = Buffer.from(before);
  const next = Buffer.from(after);
  const offset = onlyDifference(old, next);
  if (offset === null || old.length > syncReadBytes || !constants.O_NOFOLLOW) return false;
  const opened = openForEdit(file);
  if (opened === null) return false;
  try {
    // One byte past `before` is asked for, so a file that grew since is not taken for it.
    if (opened.size !== old.length || !readToEndSync(opened.fd, old.length, old.length).equals(old)) return false;
    writeSync(opened.fd, next, offset, 1, offset);
    try {
      await fdatasyncOf(opened.fd);
    } catch {
      writeSync(opened.fd, old, offset, 1, offset);
      return false;
    }
    return true;
  } finally {
    closeSync(opened.fd);
  }
}

function openForEdit(file: string): { fd: number; size: number } | null {
  try {
    return openPlainSync(file, 1, constants.O_RDWR);
  } catch (error) {
    if (notWritableInPlace.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/** The offset of the one byte in which two equally long buffers differ; null for none, several, or other lengths. */
function onlyDifference(a: Buffer, b: Buffer): number | null {
  if (a.length !== b.length) return null;
  let found: number | null = null;
  for (let at = 0; at < a.length; at += 1) {
    if (a[at] === b[at]) continue;
    if (found !== null) return null;
    found = at;
  }
  return found;
}
