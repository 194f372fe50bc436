import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { specialKind } from '../workspace/heldFolder.js';

const { O_NOFOLLOW = 0, O_NONBLOCK = 0 } = constants;

/** A file of the workbench's own state that is not a plain file of its own: refused, never followed. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

export interface StateFileOptions {
  /** Links the file may have; 2 only for the lock, which is hard-linked into place for a moment. */
  maxLinks?: number;
}

/**
 * Opens a file of `.workbench/` without following a symlink, without waiting on a FIFO, and only when it
 * is a plain file with no other name (a hard link shared with a file elsewhere would let an append or a
 * truncate reach that file). Everything the engine reads or changes in its state folder opens through here.
 */
export async function openStateFile(file: string, flags: number, { maxLinks = 1, mode = 0o644 }: StateFileOptions & { mode?: number } = {}): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new StateFileError(refusal(file, 'is a symlink'));
    throw error;
  }
  try {
    const problem = notPlain(await handle.stat(), maxLinks);
    if (problem) throw new StateFileError(refusal(file, problem));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole state file, or null when it does not exist. */
export async function readStateFile(file: string, options: StateFileOptions = {}): Promise<Buffer | null> {
  let handle: FileHandle;
  try {
    handle = await openStateFile(file, constants.O_RDONLY, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export async function readStateText(file: string, options: StateFileOptions = {}): Promise<string | null> {
  return (await readStateFile(file, options))?.toString('utf8') ?? null;
}

/** Why an entry of the state folder is not a plain file of its own, or null when it is. */
export function notPlain(stats: Stats, maxLinks = 1): string | null {
  if (stats.isSymbolicLink()) return 'is a symlink';
  if (stats.isDirectory()) return 'is a folder where a file belongs';
  const special = specialKind(stats);
  if (special) return `is ${special}`;
  if (stats.nlink > maxLinks) return `is a hard link shared with ${stats.nlink - 1} other name${stats.nlink > 2 ? 's' : ''}`;
  return null;
}

function refusal(file: string, problem: string): string {
  return `The workbench state file ${path.basename(file)} ${problem}; the workbench never follows links in .workbench/. Remove it and try again.`;
}
