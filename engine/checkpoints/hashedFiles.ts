import { randomBytes } from 'node:crypto';
import { constants, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { removeStaleTempFiles } from '../store/atomicWrite.js';
import { openStateFile, readStateFile } from '../store/stateFile.js';

/**
 * A folder of files named by the sha256 of their content (`ab/cdef…`), each written once through a temp
 * file and a rename, so a reader never sees a partial one. One serves file contents, another folder
 * listings.
 *
 * Nothing here is fsynced: a first checkpoint of a large project writes thousands of files, and an fsync
 * each would take many seconds. A power cut can therefore leave one truncated: `has` compares sizes, so
 * the next snapshot that needs it writes it again; restore checks sizes before it changes anything and
 * hashes as it copies. The checkpoint manifest that refers to them is fsynced.
 */
export class HashedFiles {
  private readonly madeFolders = new Set<string>();

  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  /** Whether the content is stored whole (`size` bytes). */
  async has(hash: string, size: number): Promise<boolean> {
    try {
      const stats = await lstat(this.pathOf(hash));
      return stats.isFile() && stats.size === size;
    } catch {
      return false;
    }
  }

  /**
   * Stores `bytes` under `hash` unless it is there already; true when it was written now. Synchronous:
   * the bytes are in memory and the write goes to the page cache, where the promise round trips of an
   * open, a write, a close and a rename would cost more than the writing.
   */
  putBytes(hash: string, bytes: Uint8Array): boolean {
    const target = this.pathOf(hash);
    const present = lstatSync(target, { throwIfNoEntry: false });
    if (present?.isFile() && present.size === bytes.length) return false;
    this.makeFolder(path.dirname(target));
    const temp = tempName(path.dirname(target), 'put');
    try {
      writeFileSync(temp, bytes, { flag: 'wx' });
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    return true;
  }

  /** Starts a content whose hash is known only once it is all written (a large file, streamed). */
  async startWrite(): Promise<IncomingFile> {
    this.makeFolder(this.dir);
    const temp = tempName(this.dir, 'incoming');
    return new IncomingFile(this, temp, await open(temp, 'wx'));
  }

  /** Moves a finished temp file into place under `hash`, or drops it when that content is stored already. */
  async adopt(temp: string, hash: string, size: number): Promise<boolean> {
    if (await this.has(hash, size)) {
      await rm(temp, { force: true });
      return false;
    }
    const target = this.pathOf(hash);
    this.makeFolder(path.dirname(target));
    await rename(temp, target);
    return true;
  }

  async read(hash: string): Promise<Buffer> {
    const content = await readStateFile(this.pathOf(hash));
    if (content === null) throw Object.assign(new Error(`stored content ${hash} is missing`), { code: 'ENOENT' });
    return content;
  }

  open(hash: string): Promise<FileHandle> {
    return openStateFile(this.pathOf(hash), constants.O_RDONLY);
  }

  /** Every stored hash. Temp files left by a writer that died are removed on the way. */
  async list(): Promise<string[]> {
    const hashes: string[] = [];
    await removeStaleTempFiles(this.dir);
    for (const fanOut of await readdir(this.dir).catch(() => [])) {
      if (!/^[0-9a-f]{2}$/.test(fanOut)) continue;
      const folder = path.join(this.dir, fanOut);
      await removeStaleTempFiles(folder);
      for (const rest of await readdir(folder)) if (/^[0-9a-f]{62}$/.test(rest)) hashes.push(fanOut + rest);
    }
    return hashes;
  }

  async remove(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }

  private makeFolder(folder: string): void {
    if (this.madeFolders.has(folder)) return;
    mkdirSync(folder, { recursive: true });
    this.madeFolders.add(folder);
  }
}

/** A content being written to a temp file; `commit` names it by the hash its writer computed. */
export class IncomingFile {
  constructor(
    private readonly store: HashedFiles,
    private readonly temp: string,
    private readonly handle: FileHandle,
  ) {}

  write(bytes: Uint8Array): Promise<void> {
    return writeAll(this.handle, bytes);
  }

  /** True when the content was not stored before. */
  async commit(hash: string, size: number): Promise<boolean> {
    await this.handle.close();
    try {
      return await this.store.adopt(this.temp, hash, size);
    } catch (error) {
      await rm(this.temp, { force: true });
      throw error;
    }
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.temp, { force: true });
  }
}

/** Writes all of `bytes` at the handle's position (a single write may take fewer). */
export async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
}

let tempCount = randomBytes(4).readUInt32BE();

/** In the form removeStaleTempFiles recognises: `.<label>.<pid>.<8 hex>.tmp`; a counter, as a first snapshot makes thousands. */
function tempName(dir: string, label: string): string {
  tempCount = (tempCount + 1) >>> 0;
  return path.join(dir, `.${label}.${process.pid}.${tempCount.toString(16).padStart(8, '0')}.tmp`);
}
