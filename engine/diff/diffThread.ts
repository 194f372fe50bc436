import type { Worker } from 'node:worker_threads';
import { startWorker } from '../process/workerEntry.js';
import type { DiffJob, DiffReply } from './diffWorker.js';

export type { DiffJobSide, DiffSideResult } from './diffWorker.js';
export type DiffResult = Extract<DiffReply, { before: unknown }>;

/** Idle this long, the worker ends; the Changes view asks for several large diffs in a row. */
const idleMs = 60_000;
let shared: DiffThread | undefined;
const counts = { sent: 0, computed: 0 };

/** Diffs handed to the diff worker so far in this process, and those it answered with a diff (the tests' way to see where a diff ran). */
export function diffsOffThread(): { sent: number; computed: number } {
  return { ...counts };
}

/**
 * Reads, decodes and line-diffs one pair on the diff worker thread, so a diff of megabytes never holds up
 * the engine's thread: requests that come meanwhile are answered. Jobs run one after another.
 */
export function diffOffThread(job: Omit<DiffJob, 'id'>): Promise<DiffResult> {
  shared ??= new DiffThread();
  counts.sent += 1;
  return shared.run(job);
}

class DiffThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (result: DiffResult) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    this.worker = startWorker(new URL('./diffWorker.ts', import.meta.url));
    this.worker.unref();
    this.worker.on('message', (reply: DiffReply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('the diff worker stopped')));
  }

  run(job: Omit<DiffJob, 'id'>): Promise<DiffResult> {
    clearTimeout(this.idleTimer);
    if (this.waiting.size === 0) this.worker.ref();
    const id = this.nextId++;
    // Bytes that fill an ArrayBuffer of their own are handed over, not copied; a small Buffer may share Node's pool, which stays.
    const transfer = [job.before, job.after].flatMap((side) => {
      const bytes = side && 'bytes' in side ? side.bytes : null;
      return bytes && bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];
    });
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...job, id }, [...new Set(transfer)]);
    });
  }

  private settle(reply: DiffReply): void {
    const waiter = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if ('error' in reply) waiter?.reject(new Error(`The diff could not be computed: ${reply.error}`));
    else {
      counts.computed += 1;
      waiter?.resolve(reply);
    }
    if (this.waiting.size > 0) return;
    this.worker.unref();
    this.idleTimer = setTimeout(() => void this.worker.terminate(), idleMs).unref();
  }

  private fail(error: Error): void {
    if (shared === this) shared = undefined;
    clearTimeout(this.idleTimer);
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}

