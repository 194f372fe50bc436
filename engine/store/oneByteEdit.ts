import { closeSync, constants, fdatasync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { readToEndSync } from '../files/wholeBytes.js';
import { openPlainSync } from './stateFile.js';

const fdatasyncOf = promisify(fdatasync);

/**
 * Writes `after` over a state file that holds `before`, when the two differ in exactly one byte (a plan
 * item's checkbox: `[ ]` to `[x]`): that byte is written where it lies and the data synced, instead of a
 * temp file, a rename and two fsyncs (see writeFileAtomic). A one-byte write cannot be torn, so after a
 * crash the file holds either text, as with a rename. Nothing is written, and false returned, when the
 * edit is more than one byte or the file no longer holds `before` (checked on the descriptor that is
 * written): the caller then writes the whole file. The file is opened with the refusals of every state
 * file (no symlink, no FIFO, no other hard link).
 */
export async function writeOneByteEdit(file: string, before: string, after: string): Promise<boolean> {
  const old = Buffer.from(before);
  const next = Buffer.from(after);
  const offset = onlyDifference(old, next);
  if (offset === null) return false;
  const opened = openPlainSync(file, 1, constants.O_RDWR);
  if (opened === null) return false;
  try {
    // One byte past `before` is asked for, so a file that grew since is not taken for it.
    if (opened.size !== old.length || !readToEndSync(opened.fd, old.length, old.length).equals(old)) return false;
    writeSync(opened.fd, next, offset, 1, offset);
    await fdatasyncOf(opened.fd);
    return true;
  } finally {
    closeSync(opened.fd);
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
