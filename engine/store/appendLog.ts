import { constants } from 'node:fs';
import { mkdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { writeAll } from '../files/wholeBytes.js';
import { filterJsonl, findJsonl, readJsonl, type JsonlRead } from './jsonl.js';
import { SerialQueue } from './serialQueue.js';
import { openStateFile } from './stateFile.js';

export interface AppendLogOptions<T> {
  file: string;
  schema: z.ZodType<T>;
  /** Names the file in warnings, e.g. "conversation.jsonl". */
  label: string;
  /** Told, once per cut, when an incomplete last line left by a crash is cut off before an append. */
  onCut?: (message: string) => void;
  /** A file larger than this is refused (StateFileError) instead of read into memory; no cap when absent. */
  maxBytes?: number;
  /**
   * Keeps the file open between appends (until close()), for a log appended to on every turn of a run:
   * each append is then one write instead of open, check, write and close. The file is checked (no link,
   * no other name) when it is opened; the writes stay O_APPEND writes, which land at the end even after
   * a truncate. Only for a file the engine never renames or removes while the log is open.
   */
  keepOpen?: boolean;
}

/**
 * A JSON-lines file that only grows by whole records, or is cut at a record for undo. Each append is one
 * O_APPEND write of `JSON + "\n"`; a torn last line left by a crash is cut off before the first append.
 * Operations run one at a time. Keep one AppendLog per file: it remembers how the file ends.
 */
export class AppendLog<T> {
  private readonly queue = new SerialQueue();
  private readonly file: string;
  private lastRead: Pick<JsonlRead<T>, 'tornTail' | 'intactBytes'> | null = null;
  /** True once the file is known to end with a complete line, so appends need no check. */
  private endsClean = false;
  /** The handle appends write through while the file is kept open (keepOpen). */
  private held: FileHandle | null = null;
  /** Once closed, an append that still comes (one that was on its way) opens the file for itself alone. */
  private closed = false;

  constructor(private readonly options: AppendLogOptions<T>) {
    this.file = options.file;
  }

  /** Every intact record with its offset; a torn last line reported here is cut off by the next append. */
  load(): Promise<JsonlRead<T>> {
    return this.queue.run(() => this.read());
  }

  append(record: T): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    return this.queue.run(async () => {
      const data = Buffer.from((await this.prepareEnd()) + line);
      const handle = this.held ?? (await openStateFile(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT));
      let failed = false;
      try {
        await writeAll(handle.fd, data, { syncUpTo: syncWriteBytes });
      } catch (error) {
        failed = true;
        this.lastRead = null; // a failed write may have left a torn line: read again before the next append
        this.endsClean = false;
        throw error;
      } finally {
        if (this.options.keepOpen && !this.closed && !failed) this.held = handle;
        else await this.release(handle);
      }
    });
  }

  /** Closes the file kept open between appends (keepOpen); an append after it opens and closes the file for itself. */
  close(): Promise<void> {
    return this.queue.run(async () => {
      this.closed = true;
      if (this.held) await this.release(this.held);
    });
  }

  private async release(handle: FileHandle): Promise<void> {
    if (this.held === handle) this.held = null;
    await handle.close();
  }

  /** Cuts the file at the first record `isTarget` accepts, keeping every byte before it; false when none does. */
  truncateAt(isTarget: (record: T) => boolean): Promise<boolean> {
    return this.queue.run(async () => {
      const { records, offsets } = await this.read();
      const offset = offsets[records.findIndex(isTarget)];
      if (offset === undefined) return false;
      await truncateStateFile(this.file, offset);
      this.endsClean = true;
      return true;
    });
  }

  /** The first record `isTarget` accepts, read as a stream after any append in flight has landed. */
  find(isTarget: (record: T) => boolean): Promise<T | null> {
    return this.queue.run(() => findJsonl(this.file, this.options.schema, isTarget));
  }

  /** Every record `isTarget` accepts, in order, after any append in flight has landed; only lines holding `hint` are parsed. */
  filter(isTarget: (record: T) => boolean, hint?: string): Promise<T[]> {
    return this.queue.run(() => filterJsonl(this.file, this.options.schema, isTarget, hint));
  }

  private async read(): Promise<JsonlRead<T>> {
    const { maxBytes } = this.options;
    const result = await readJsonl(this.file, this.options.schema, this.options.label, maxBytes === undefined ? {} : { maxBytes });
    this.lastRead = result;
    this.endsClean = false;
    return result;
  }

  /** Cuts a torn tail and returns the newline a complete but unterminated last line still needs. */
  private async prepareEnd(): Promise<string> {
    if (this.endsClean) return '';
    const { tornTail, intactBytes } = this.lastRead ?? (await this.read());
    await mkdir(path.dirname(this.file), { recursive: true });
    if (tornTail) {
      const cut = (await fileSize(this.file)) - intactBytes;
      await truncateStateFile(this.file, intactBytes);
      this.options.onCut?.(
        `${this.options.label}: cut off an incomplete last line of ${cut} ${cut === 1 ? 'byte' : 'bytes'}, left by a write that did not finish (the process stopped mid-write); every complete record is kept.`,
      );
    }
    this.endsClean = true;
    return intactBytes > 0 && (await lastByte(this.file)) !== '\n' ? '\n' : '';
  }
}

/**
 * A record up to this size is written in synchronous calls: a write into the page cache takes
 * microseconds, less than the thread-pool round trip of an asynchronous one (and the tool log takes one
 * every tool call).
 */
const syncWriteBytes = 64 * 1024;

async function fileSize(file: string): Promise<number> {
  const handle = await openStateFile(file, constants.O_RDONLY);
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

async function lastByte(file: string): Promise<string> {
  const handle = await openStateFile(file, constants.O_RDONLY);
  try {
    const { size } = await handle.stat();
    const { buffer } = await handle.read({ buffer: Buffer.alloc(1), position: size - 1 });
    return buffer.toString('latin1');
  } finally {
    await handle.close();
  }
}

async function truncateStateFile(file: string, length: number): Promise<void> {
  const handle = await openStateFile(file, constants.O_WRONLY);
  try {
    await handle.truncate(length);
  } finally {
    await handle.close();
  }
}
