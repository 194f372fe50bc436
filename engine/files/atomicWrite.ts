import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsync, openSync, renameSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { writeAll } from './wholeBytes.js';
import path from 'node:path';

const tempNamePattern = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

export interface AtomicWriteChecks {
  /** Runs on the open temp file (its descriptor) before anything is written (e.g. to check where it really is). */
  beforeWrite?: (fd: number) => Promise<void>;
  /** Runs just before the rename puts the new content in place. */
  beforeRename?: () => Promise<void>;
  /**
   * Told the temp file's path before it is created and again once it is gone (renamed into place or
   * removed), so a journal can find what a crash in between left (see PendingWrites).
   */
  journal?: { begin(temp: string): Promise<void>; end(temp: string): Promise<void> };
}

/**
 * Replaces a file so that a reader (or a crash) sees either the old or the new content, never a mix:
 * write a temp file in the same directory, fsync it, rename it over the target, fsync the directory.
 * A writer killed midway leaves its temp file behind; removeStaleTempFiles cleans those up.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644, checks: AtomicWriteChecks = {}): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await checks.journal?.begin(temp);
  try {
    await writeThrough(temp, file, dir, data, mode, checks);
  } finally {
    await checks.journal?.end(temp);
  }
}

/**
 * Up to this size the data is written in one synchronous call, like the open, close and rename around it
 * (each some microseconds); only the fsyncs, which wait on the disk, go to the thread pool. A larger write
 * goes there too, so it never holds the engine's thread.
 */
const syncWriteBytes = 1024 * 1024;

async function writeThrough(temp: string, file: string, dir: string, data: string | Uint8Array, mode: number, checks: AtomicWriteChecks): Promise<void> {
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    await checks.beforeWrite?.(fd);
    await writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data, { syncUpTo: syncWriteBytes });
    await fsyncOf(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    await checks.beforeRename?.();
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

const fsyncOf = promisify(fsync);

/**
 * Removes the temp files writeFileAtomic left in `dir` when its process died mid-write. A temp file
 * whose writer (the pid in its name) is still alive may be a write in progress and is kept.
 * Returns the names removed; a missing folder has none.
 */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const stale = names.filter((name) => {
    const pid = tempNamePattern.exec(name)?.[1];
    return pid !== undefined && !isProcessAlive(Number(pid));
  });
  await Promise.all(stale.map((name) => rm(path.join(dir, name), { force: true })));
  return stale;
}

/** Whether a process with this pid is running (this one always is); for the names of files a writer left. */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes the names in `dir` (a rename, a new entry) durable. */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync on Windows
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    await fsyncOf(fd);
  } finally {
    closeSync(fd);
  }
}
