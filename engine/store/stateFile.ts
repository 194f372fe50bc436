import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../contract/units.js';
import { readToEnd, readToEndSync } from '../files/wholeBytes.js';
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

export interface ReadStateFileOptions extends StateFileOptions {
  /**
   * The most bytes a read takes: a larger file (a planted multi-gigabyte plan.md, say) is refused with a
   * StateFileError before any of it is read, so a snapshot cannot exhaust memory. No cap when absent.
   */
  maxBytes?: number;
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

/**
 * Every state file is opened and checked synchronously (open and stat: microseconds); one up to this
 * size is also read so, in one go, not as thread-pool round trips that each wait behind whatever else the
 * pool is doing (a plan item re-reads plan.md and checks.jsonl several times). A larger one is read through
 * the pool, so a big file never holds the engine's thread.
 */
export const syncReadBytes = 64 * 1024;

/** The whole state file, or null when it does not exist; refused (StateFileError) when larger than `maxBytes`. */
export async function readStateFile(file: string, { maxBytes, ...options }: ReadStateFileOptions = {}): Promise<Buffer | null> {
  const opened = openPlainSync(file, options.maxLinks);
  if (opened === null) return null;
  const cap = maxBytes ?? Number.POSITIVE_INFINITY;
  try {
    if (opened.size > cap) throw new StateFileError(tooLarge(file, opened.size, cap));
    // Never more than one byte past the cap, so a file that grows after the stat cannot be read without end.
    const bytes = opened.size <= syncReadBytes ? readToEndSync(opened.fd, opened.size, cap) : await readToEnd(opened.fd, opened.size, cap);
    if (bytes.length > cap) throw new StateFileError(tooLarge(file, bytes.length, cap));
    return bytes;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * readStateFile for a small file, synchronously (no size cap): the open, stat, read and close of many
 * small files cost more as promise round trips than the reading. The same refusals as openStateFile.
 */
export function readStateFileSync(file: string, { maxLinks = 1 }: StateFileOptions = {}): Buffer | null {
  const opened = openPlainSync(file, maxLinks);
  if (opened === null) return null;
  try {
    return readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
}

/** openStateFile synchronously (for reading unless `flags` say otherwise); null when the file does not exist. The caller closes `fd`. */
export function openPlainSync(file: string, maxLinks = 1, flags: number = constants.O_RDONLY): { fd: number; size: number } | null {
  let fd: number;
  try {
    fd = openSync(file, flags | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new StateFileError(refusal(file, 'is a symlink'));
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    const problem = notPlain(stats, maxLinks);
    if (problem) throw new StateFileError(refusal(file, problem));
    return { fd, size: stats.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export async function readStateText(file: string, options: ReadStateFileOptions = {}): Promise<string | null> {
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

function tooLarge(file: string, size: number, maxBytes: number): string {
  // Exact bytes when the rounded sizes would read the same ("8.0 MB, more than the 8.0 MB").
  const shown = (bytes: number) => (formatBytes(size) === formatBytes(maxBytes) ? `${bytes.toLocaleString('en-US')} bytes` : formatBytes(bytes));
  return `The workbench state file ${path.basename(file)} is ${shown(size)}, more than the ${shown(maxBytes)} the workbench reads, so it was not read. Remove it and try again.`;
}

function refusal(file: string, problem: string): string {
  return `The workbench state file ${path.basename(file)} ${problem}; the workbench never follows links in .workbench/. Remove it and try again.`;
}
