import { KeptWorker } from '../process/keptWorker.js';
import { startWorker } from '../process/workerEntry.js';
import type { DiffJob, DiffReply } from './diffWorker.js';

export type { DiffJobSide, DiffSideResult } from './diffWorker.js';
export type DiffResult = Extract<DiffReply, { before: unknown }>;

/** Idle this long, the worker ends; the Changes view asks for several large diffs in a row. */
const idleMs = 60_000;
let shared: KeptWorker<DiffReply> | undefined;
const counts = { sent: 0, computed: 0 };

/** Diffs handed to the diff worker so far in this process, and those it answered with a diff (the tests' way to see where a diff ran). */
export function diffsOffThread(): { sent: number; computed: number } {
  return { ...counts };
}

/**
 * Reads, decodes and line-diffs one pair on the diff worker thread, so a diff of megabytes never holds up
 * the engine's thread: requests that come meanwhile are answered. Jobs run one after another.
 */
export async function diffOffThread(job: Omit<DiffJob, 'id'>): Promise<DiffResult> {
  shared ??= new KeptWorker<DiffReply>(startWorker(new URL('./diffWorker.ts', import.meta.url)), {
    idleMs,
    name: 'the diff worker',
    onStop: () => (shared = undefined),
  });
  counts.sent += 1;
  // Bytes that fill an ArrayBuffer of their own are handed over, not copied; a small Buffer may share Node's pool, which stays.
  const transfer = [job.before, job.after].flatMap((side) => {
    const bytes = side && 'bytes' in side ? side.bytes : null;
    return bytes && bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];
  });
  const reply = await shared.send(job, [...new Set(transfer)]);
  if ('error' in reply) throw new Error(`The diff could not be computed: ${reply.error}`);
  counts.computed += 1;
  return reply;
}
