import { Worker } from 'node:worker_threads';
import { fileKindOf, sniffLength } from '../files/fileKind.js';
import { readContainedSync } from '../workspace/containedRead.js';
import { runDiffWorker, type DiffJob, type DiffReply } from './diffWorker.js';
import { lineDiffFunctions, noNewlineMarker } from './lineDiff.js';
import { decodeText, lineCount, lineEndingsOf } from './textContent.js';

export type { DiffJobSide, DiffSideResult } from './diffWorker.js';
export type DiffResult = Extract<DiffReply, { before: unknown }>;

/** Idle this long, the worker ends; the Changes view asks for several large diffs in a row. */
const idleMs = 60_000;
let shared: DiffThread | undefined;
let jobsSent = 0;

/** Diffs computed on the diff worker so far in this process (the tests' way to see where a diff ran). */
export function diffsOffThread(): number {
  return jobsSent;
}

/**
 * Reads, decodes and line-diffs one pair on the diff worker thread, so a diff of megabytes never holds up
 * the engine's thread: requests that come meanwhile are answered. Jobs run one after another.
 */
export function diffOffThread(job: Omit<DiffJob, 'id'>): Promise<DiffResult> {
  shared ??= new DiffThread();
  jobsSent += 1;
  return shared.run(job);
}

class DiffThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (result: DiffResult) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    // execArgv: [] because the source is plain CommonJS: the host's flags (a loader, --input-type=module) must not apply to it.
    this.worker = new Worker(workerSource(), { eval: true, execArgv: [] });
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
    else waiter?.resolve(reply);
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

/**
 * The worker's code as text, run with `eval: true`: a separate worker file could not be found from inside
 * the esbuild bundles, while a function's own source travels with it. Every function the worker runs is
 * self-contained, or calls only the others given here. tsx compiles with keepNames, which wraps nested
 * functions in an `__name` helper; the stub makes that a no-op.
 */
function workerSource(): string {
  const declared = [...lineDiffFunctions, fileKindOf, decodeText, lineCount, lineEndingsOf, readContainedSync];
  return [
    "'use strict';",
    'const __name = (target) => target;',
    "const { parentPort } = require('node:worker_threads');",
    `const noNewlineMarker = ${JSON.stringify(noNewlineMarker)};`,
    ...declared.map((fn) => fn.toString()),
    `(${runDiffWorker.toString()})({`,
    "  fs: require('node:fs'),",
    "  crypto: require('node:crypto'),",
    '  port: parentPort,',
    `  readContained: ${readContainedSync.name},`,
    `  decode: (bytes) => ${decodeText.name}(bytes, (head) => ${fileKindOf.name}(head.subarray(0, ${sniffLength}))),`,
    `  diff: ${lineDiffFunctions[1]!.name},`,
    '});',
  ].join('\n');
}
