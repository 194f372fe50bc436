import { rm, type FileHandle } from 'node:fs/promises';
import { createGzip, gzipSync, type Gzip } from 'node:zlib';
import { writeAll } from '../files/wholeBytes.js';

/** gzip's fastest level: most of the size saving of the default at a fraction of its time (bench checkpoints). */
export const gzipLevel = 1;
/** Content whose gzip is not at least this much smaller is stored as it is: it was compressed already (images, archives, office files). */
export const worthGzipping = 0.9;

/** Where a finished content goes (HashedFiles): it names the temp file by its hash, unless stored already. */
interface ContentStore {
  adopt(temp: string, hash: string, size: number, gzipped: boolean): Promise<boolean>;
}

/**
 * A content being written to a temp file; `commit` names it by the hash its writer computed. Whether it is
 * gzipped is decided on its first piece: a piece that does not compress says the rest will not either.
 */
export class IncomingFile {
  private gzip: Gzip | null = null;
  private decided = false;
  private written: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly store: ContentStore,
    private readonly temp: string,
    private readonly handle: FileHandle,
  ) {}

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.decided) {
      this.decided = true;
      if (gzipSync(bytes, { level: gzipLevel }).length < bytes.length * worthGzipping) this.startGzip();
    }
    if (!this.gzip) return writeAll(this.handle.fd, bytes);
    const gzip = this.gzip;
    await new Promise<void>((resolve, reject) => gzip.write(bytes, (error) => (error ? reject(error) : resolve())));
    await this.written;
    if (this.failure) throw this.failure;
  }

  /** True when the content was not stored before. */
  async commit(hash: string, size: number): Promise<boolean> {
    try {
      if (this.gzip) {
        const gzip = this.gzip;
        // 'end' comes once every compressed piece has been handed to the data listener.
        await new Promise<void>((resolve) => {
          gzip.once('end', resolve);
          gzip.end();
        });
        await this.written;
        if (this.failure) throw this.failure;
      }
      await this.handle.close();
      return await this.store.adopt(this.temp, hash, size, this.gzip !== null);
    } catch (error) {
      await this.handle.close().catch(() => undefined);
      await rm(this.temp, { force: true });
      throw error;
    }
  }

  async discard(): Promise<void> {
    this.gzip?.destroy();
    await this.handle.close().catch(() => undefined);
    await rm(this.temp, { force: true });
  }

  /** Compressed pieces go to the file in the order they come, one write after another. */
  private startGzip(): void {
    const gzip = createGzip({ level: gzipLevel });
    gzip.on('data', (chunk: Buffer) => {
      this.written = this.written.then(() => writeAll(this.handle.fd, chunk)).catch((error: unknown) => {
        this.failure = error;
      });
    });
    gzip.on('error', (error) => {
      this.failure = error;
    });
    this.gzip = gzip;
  }
}
