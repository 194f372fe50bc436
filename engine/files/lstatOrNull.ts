import { lstatSync, type Stats } from 'node:fs';

/** A path's lstat, or null when it is gone or cannot be looked at (a walk goes on without it). */
export function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
