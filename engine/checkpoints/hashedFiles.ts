import { randomBytes } from 'node:crypto';
import { constants, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createGunzip, gunzip, gunzipSync, gzipSync } from 'node:zlib';
import { removeStaleTempFiles } from '../files/atomicWrite.js';
import { openStateFile, readStateFile, readStateFileSync } from '../store/stateFile.js';
import { gzipLevel, IncomingFile, worthGzipping } from './incomingFile.js';

const gunzipAsync = promisify(gunzip);

const gzSuffix = '.gz';
/** Contents smaller than this are read back synchronously (see read). */
const syncReadBytes = 1 << 20;

/**
 * A folder of files named by the sha256 of their content (the whole hash, `cdef…`), each written once
 * through a temp file and a rename, so a reader never sees a partial one. One serves file contents, another
 * folder listings. Content that compresses is stored gzipped (`cdef….gz`, gzip level 1); the rest as it
 * is. Either way the name is the hash of the content itself, and a reader gets the content back.
 *
 * The files lie in the folder itself, not in two-character subfolders as git's loose objects do: creating
 * those subfolders was most of the cost of a folder's first checkpoint (a subfolder for nearly every
 * file of a small project). Stores written before keep theirs under `ab/cdef…`; every read, `has`,
 * `list` and `remove` looks there too, so such a store goes on working, and new contents go flat.
 *
 * Nothing here is fsynced: a first checkpoint of a large project writes thousands of files, and an fsync
 * each would take many seconds. A power cut can therefore leave one truncated: `has` compares sizes, so
 * the next snapshot that needs it writes it again; restore checks sizes before it changes anything and
 * hashes as it copies. The checkpoint manifest that refers to them is fsynced.
 */
export class HashedFiles {
  private folderMade = false;

  constructor(readonly dir: string) {}

  /** Where a content is written: its own name in the folder. */
  pathOf(hash: string): string {
    return path.join(this.dir, hash);
  }

  /** Where a content may lie: its own name, then `ab/cdef…`, where stores written before keep theirs. */
  private placesOf(hash: string): [string, string] {
    return [this.pathOf(hash), path.join(this.dir, hash.slice(0, 2), hash.slice(2))];
  }

  /** Whether the content is stored whole (`size` bytes): as it is, or gzipped with a trailer that says `size`. */
  async has(hash: string, size: number): Promise<boolean> {
    return (await this.wholeCopy(hash, size)) !== null;
  }

  /** The first copy of the content that is whole (see has), flat or in the old layout; null when there is none. */
  private async wholeCopy(hash: string, size: number): Promise<{ file: string; gzipped: boolean } | null> {
    for (const place of this.placesOf(hash)) {
      const plain = await lstat(place).catch(() => null);
      if (plain?.isFile() && plain.size === size) return { file: place, gzipped: false };
      if ((await gzippedSize(place + gzSuffix)) === size % 2 ** 32) return { file: place + gzSuffix, gzipped: true };
    }
    return null;
  }

  /**
   * Stores `bytes` under `hash` unless it is there already; true when it was written now. Synchronous:
   * the bytes are in memory and the write goes to the page cache, where the promise round trips of an
   * open, a write, a close and a rename would cost more than the writing.
   */
  putBytes(hash: string, bytes: Uint8Array): boolean {
    if (this.placesOf(hash).some((place) => storedAt(place, bytes.length))) return false;
    const target = this.pathOf(hash);
    this.makeFolder();
    const gzipped = bytes.length > 64 ? gzipSync(bytes, { level: gzipLevel }) : null;
    const [data, name] = gzipped && gzipped.length < bytes.length * worthGzipping ? [gzipped, target + gzSuffix] : [bytes, target];
    const temp = tempName(this.dir, 'put');
    try {
      writeFileSync(temp, data, { flag: 'wx' });
      renameSync(temp, name);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    return true;
  }

  /** Starts a content whose hash is known only once it is all written (a large file, streamed). */
  async startWrite(): Promise<IncomingFile> {
    this.makeFolder();
    const temp = tempName(this.dir, 'incoming');
    return new IncomingFile(this, temp, await open(temp, 'wx'));
  }

  /** Moves a finished temp file into place under `hash` (gzipped or not), or drops it when that content is stored already. */
  async adopt(temp: string, hash: string, size: number, gzipped: boolean): Promise<boolean> {
    if (await this.has(hash, size)) {
      await rm(temp, { force: true });
      return false;
    }
    const target = this.pathOf(hash);
    await rename(temp, gzipped ? target + gzSuffix : target);
    return true;
  }

  /**
   * The content, whole (for folder listings and files). Given its size and under 1 MiB, read
   * synchronously, the gzipped name first: most contents that are read back (text, listings) compress.
   * Given its size, a copy as it is of another size (cut short by a power cut) is passed over for the next.
   */
  async read(hash: string, size?: number): Promise<Buffer> {
    const whole = (plain: Buffer | null): plain is Buffer => plain !== null && (size === undefined || plain.length === size);
    for (const place of this.placesOf(hash)) {
      if (size !== undefined && size < syncReadBytes) {
        const gzipped = readStateFileSync(place + gzSuffix);
        // Never more than the recorded size: a damaged or planted object cannot blow up in memory. Output
        // in one piece of that size, not zlib's 16 KB ones: a list of changes reads thousands of small files.
        if (gzipped !== null) return gunzipSync(gzipped, { maxOutputLength: Math.max(size, 1), chunkSize: Math.max(size + 1, 64) });
        const plain = readStateFileSync(place);
        if (whole(plain)) return plain;
        continue;
      }
      const plain = await readStateFile(place);
      if (whole(plain)) return plain;
      const gzipped = await readStateFile(place + gzSuffix);
      if (gzipped !== null) return gunzipAsync(gzipped);
    }
    throw missing(hash);
  }

  /** The content in pieces, never held whole (restoring a large file), from the copy `has` finds whole. */
  async *stream(hash: string, size: number): AsyncGenerator<Buffer> {
    const whole = await this.wholeCopy(hash, size);
    if (!whole) throw missing(hash);
    const handle = await openStateFile(whole.file, constants.O_RDONLY);
    const source = handle.createReadStream({ highWaterMark: 1 << 20 });
    try {
      yield* (whole.gzipped ? source.pipe(createGunzip()) : source) as AsyncIterable<Buffer>;
    } finally {
      source.destroy();
      await handle.close().catch(() => undefined);
    }
  }

  /**
   * Every stored hash, in either layout. Temp files left by a writer that died are removed on the way. An
   * old-layout subfolder is looked into only when it is a folder, never through a symlink planted there.
   */
  async list(): Promise<string[]> {
    const hashes = new Set<string>();
    await removeStaleTempFiles(this.dir);
    for (const entry of await readdir(this.dir, { withFileTypes: true }).catch(() => [])) {
      const own = /^([0-9a-f]{64})(?:\.gz)?$/.exec(entry.name);
      if (own) hashes.add(own[1]!);
      if (!entry.isDirectory() || !/^[0-9a-f]{2}$/.test(entry.name)) continue;
      const folder = path.join(this.dir, entry.name);
      await removeStaleTempFiles(folder);
      for (const rest of await readdir(folder).catch(() => [])) if (/^[0-9a-f]{62}(?:\.gz)?$/.test(rest)) hashes.add(entry.name + rest.slice(0, 62));
    }
    return [...hashes];
  }

  /** Removes the content in either layout; the old layout's only where its subfolder is a folder, not a symlink. */
  async remove(hash: string): Promise<void> {
    const [flat, old] = this.placesOf(hash);
    const places = (await lstat(path.dirname(old)).catch(() => null))?.isDirectory() ? [flat, old] : [flat];
    for (const place of places) {
      await rm(place, { force: true });
      await rm(place + gzSuffix, { force: true });
    }
  }

  private makeFolder(): void {
    if (this.folderMade) return;
    mkdirSync(this.dir, { recursive: true });
    this.folderMade = true;
  }
}

/**
 * Whether `place` holds a content of `size` bytes: as it is, at that size, or gzipped. A gzipped one is
 * not re-checked here: `has` reads its trailer when it matters (restore, the next snapshot).
 */
function storedAt(place: string, size: number): boolean {
  const plain = lstatSync(place, { throwIfNoEntry: false });
  if (plain) return plain.isFile() && plain.size === size;
  return lstatSync(place + gzSuffix, { throwIfNoEntry: false })?.isFile() === true;
}

function missing(hash: string): Error {
  return Object.assign(new Error(`stored content ${hash} is missing`), { code: 'ENOENT' });
}

/** The size a gzip file's trailer gives (ISIZE: the content's size mod 2^32), or null when there is no such file. */
async function gzippedSize(file: string): Promise<number | null> {
  const handle = await openStateFile(file, constants.O_RDONLY).catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    if (size < 18) return null;
    const trailer = Buffer.alloc(4);
    await handle.read(trailer, 0, 4, size - 4);
    return trailer.readUInt32LE(0);
  } finally {
    await handle.close();
  }
}

let tempCount = randomBytes(4).readUInt32BE();

/** In the form removeStaleTempFiles recognises: `.<label>.<pid>.<8 hex>.tmp`; a counter, as a first snapshot makes thousands. */
function tempName(dir: string, label: string): string {
  tempCount = (tempCount + 1) >>> 0;
  return path.join(dir, `.${label}.${process.pid}.${tempCount.toString(16).padStart(8, '0')}.tmp`);
}
