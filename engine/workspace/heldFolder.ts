import { constants, existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = constants;

/**
 * Whether folders can be held by descriptor and named through `/proc/self/fd/<fd>/` (Linux). A path
 * under that magic link reaches the entries of the folder object the descriptor holds, like `openat`,
 * whatever later happens to the path that led to it. Elsewhere a held folder is named by its path, and
 * each step is checked with lstat just before use instead, which leaves a short window for a swap.
 */
export const holdsByDescriptor = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A step on the way that is not a plain folder (a symlink or a file) where a plain folder was expected. */
export class NotAPlainFolderError extends Error {
  override name = 'NotAPlainFolderError';
  constructor(
    readonly at: string,
    readonly found: 'symlink' | 'file' | 'missing' | 'other',
  ) {
    super(`${at} is ${found === 'missing' ? 'missing' : `a ${found}`}, not a plain folder`);
  }
}

export interface FolderIdentity {
  readonly dev: number;
  readonly ino: number;
}

export const sameIdentity = (a: FolderIdentity, b: FolderIdentity): boolean => a.dev === b.dev && a.ino === b.ino;

/**
 * A folder held open. `entry(name)` gives a path that names `name` inside exactly this folder; `child`
 * steps into a subfolder without following a symlink, so a walk from a held root down a path can never
 * be led elsewhere by a component swapped for a symlink. Close it when done.
 */
export class HeldFolder {
  private constructor(
    private readonly handle: FileHandle | null,
    /** What `entry` builds on: `/proc/self/fd/<fd>` on Linux, the folder's path elsewhere. */
    readonly path: string,
    /** The path the folder was reached by, for messages. */
    readonly shownAs: string,
    readonly identity: FolderIdentity,
  ) {}

  /** Opens a folder by its path, following symlinks in it: for roots the user chose, never for paths from a project. */
  static async open(folder: string): Promise<HeldFolder> {
    if (!holdsByDescriptor) {
      const stats = await lstat(folder);
      return new HeldFolder(null, folder, folder, stats);
    }
    const handle = await open(folder, O_RDONLY | O_DIRECTORY);
    return HeldFolder.held(handle, folder);
  }

  /** Steps into subfolder `name` without following a symlink; `create` makes it first when missing. */
  async child(name: string, { create = false, mode }: { create?: boolean; mode?: number } = {}): Promise<HeldFolder> {
    assertName(name);
    const shownAs = path.join(this.shownAs, name);
    if (create) await mkdir(this.entry(name), mode === undefined ? undefined : { mode }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    if (!holdsByDescriptor) {
      const stats = await lstat(this.entry(name)).catch(() => null);
      if (!stats?.isDirectory()) throw new NotAPlainFolderError(shownAs, kindOf(stats));
      return new HeldFolder(null, this.entry(name), shownAs, stats);
    }
    let handle: FileHandle;
    try {
      handle = await open(this.entry(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENOENT') throw new NotAPlainFolderError(shownAs, kindOf(await this.lstat(name)));
      throw error;
    }
    return HeldFolder.held(handle, shownAs);
  }

  /** Walks `parts` down from this folder (each step a plain folder); the caller closes the result, never `this`. */
  async descend(parts: readonly string[], options: { create?: boolean } = {}): Promise<HeldFolder> {
    const [first, ...rest] = parts;
    if (first === undefined) return this.reopen();
    let current = await this.child(first, options);
    for (const part of rest) {
      const parent = current;
      current = await parent.child(part, options).finally(() => parent.close());
    }
    return current;
  }

  /** A path naming `name` in this folder, for any fs call; `name` is one plain component. */
  entry(name: string): string {
    assertName(name);
    return `${this.path}/${name}`;
  }

  lstat(name: string): Promise<Stats | null> {
    return lstat(this.entry(name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
      throw error;
    });
  }

  list() {
    return readdir(this.path, { withFileTypes: true });
  }

  /**
   * Removes `name` from this folder: a file or symlink is unlinked, a folder emptied depth first by
   * descriptor (never following a symlink inside it) and removed.
   */
  async removeEntry(name: string): Promise<void> {
    const stats = await this.lstat(name);
    if (!stats) return;
    if (!stats.isDirectory()) return unlink(this.entry(name));
    const inner = await this.child(name);
    try {
      for (const entry of await inner.list()) await inner.removeEntry(entry.name);
    } finally {
      await inner.close();
    }
    await rmdir(this.entry(name));
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }

  private async reopen(): Promise<HeldFolder> {
    if (!this.handle) return new HeldFolder(null, this.path, this.shownAs, this.identity);
    return HeldFolder.held(await open(this.path, O_RDONLY | O_DIRECTORY), this.shownAs);
  }

  private static async held(handle: FileHandle, shownAs: string): Promise<HeldFolder> {
    try {
      return new HeldFolder(handle, `/proc/self/fd/${handle.fd}`, shownAs, await handle.stat());
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

/** Opens `name` in `folder` without following a symlink or waiting on a FIFO; the caller checks what it got. */
export function openEntry(folder: HeldFolder, name: string, flags: number, mode?: number): Promise<FileHandle> {
  return open(folder.entry(name), flags | O_NOFOLLOW | O_NONBLOCK, mode);
}

export function kindOf(stats: Stats | null): NotAPlainFolderError['found'] {
  if (!stats) return 'missing';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFile()) return 'file';
  return 'other';
}

/** What a non-regular, non-folder entry is, in words. */
export function specialKind(stats: Stats): string | null {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return null;
}

function assertName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new Error(`Internal error: "${name}" is not a single path component.`);
  }
}

/**
 * Runs `use` with the parent folder of `relPath` ('/'-separated, below `root`), reached from the root one
 * plain folder at a time without following a link, and the final name. A step that is a symlink or
 * missing throws NotAPlainFolderError.
 */
export async function inParentFolder<T>(root: string, relPath: string, use: (parent: HeldFolder, name: string) => Promise<T>): Promise<T> {
  const parts = relPath.split('/');
  const name = parts.pop()!;
  const rootFolder = await HeldFolder.open(root);
  let parent: HeldFolder;
  try {
    parent = await rootFolder.descend(parts);
  } finally {
    await rootFolder.close();
  }
  try {
    return await use(parent, name);
  } finally {
    await parent.close();
  }
}
