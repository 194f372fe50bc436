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
