import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { readSmallTextSync } from '../files/smallTextFile.js';
import { holdsByDescriptor } from './heldFolder.js';
import { isInside } from './pathRules.js';

/** Far past any real .gitignore; a larger one is planted (git stops at 100 MB). */
export const maxGitignoreBytes = 1024 * 1024;

/**
 * The text of folder `relDir`'s .gitignore (from the root), read the way git reads one since 2.32 (a link
 * is not followed) and every folder file is read here: without waiting on a FIFO, only a regular file with
 * no other name (a hard link's other name may be outside), of at most maxGitignoreBytes, and on Linux only
 * where it really is inside the root (a folder swapped for a link since it was listed is caught). Null
 * otherwise, as when there is none: a planted one can neither hang a walk nor read a file outside.
 * Synchronous: walks read it between synchronous folder listings.
 */
export function readGitignore(root: string, relDir: string): string | null {
  return readSmallTextSync(path.join(root, relDir, '.gitignore'), maxGitignoreBytes, {
    followLink: false,
    accept: (fd, stats) => stats.nlink <= 1 && (!holdsByDescriptor || isInside(root, readlinkSync(`/proc/self/fd/${fd}`))),
  });
}
