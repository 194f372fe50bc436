import type { Stats } from 'node:fs';

/** The lstat fields a checkpoint looks at: `mode` with its file-type bits, so it also tells files from symlinks. */
export interface StatRecord {
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export function statRecordOf(stats: Stats): StatRecord {
  return { mode: stats.mode, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

const typeBits = 0o170000;
export const isRegularFile = (mode: number) => (mode & typeBits) === 0o100000;
export const isSymlink = (mode: number) => (mode & typeBits) === 0o120000;
export const isFolder = (mode: number) => (mode & typeBits) === 0o040000;

/** Permission bits, setuid/setgid/sticky included. */
export const permissionBits = (mode: number) => mode & 0o7777;

/**
 * How close to a snapshot's start a file's times may be for its record to be trusted next time (git's
 * "racy clean" problem): a file written again within one tick of the clock that stamps it keeps the same
 * times, so a file stamped within a tick or two of the snapshot could change unseen; the same holds for a
 * folder's times and its list of names. Stamps in whole
 * seconds mean a file system that keeps only seconds (or, like FAT, every other second): 2 s. Finer
 * stamps come from a kernel clock that ticks every few milliseconds: 250 ms is many ticks.
 */
export function racyWindowMs(mtimeMs: number): number {
  return Number.isInteger(mtimeMs / 1000) ? 2_000 : 250;
}
