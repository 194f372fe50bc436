import type * as NodeFs from 'node:fs';
import { Worker } from 'node:worker_threads';

/** Numbers per path in a result: mode, size, mtimeMs, ctimeMs, ino; mode is NaN when lstat failed. */
export const statFields = 5;

/**
 * lstat of each path under `root`, packed into one array that crosses a thread without copying. Runs in
 * the worker and, for a small batch, in the caller; self-contained, as the worker gets it as source text.
 */
export function lstatAll(fs: typeof NodeFs, root: string, paths: readonly string[]): Float64Array {
  const out = new Float64Array(paths.length * 5);
  for (let index = 0; index < paths.length; index += 1) {
    const at = index * 5;
    let stats: NodeFs.Stats | undefined;
    try {
      stats = fs.lstatSync(`${root}/${paths[index]}`, { throwIfNoEntry: false });
    } catch {
      stats = undefined;
    }
    if (!stats) {
      out[at] = NaN;
      continue;
    }
    out[at] = stats.mode;
    out[at + 1] = stats.size;
    out[at + 2] = stats.mtimeMs;
    out[at + 3] = stats.ctimeMs;
    out[at + 4] = stats.ino;
  }
  return out;
}

interface Reply {
  id: number;
  stats: Float64Array;
}

/** Idle this long, the worker ends; a snapshot is taken before each tool call, so it is usually still there. */
const idleMs = 5 * 60_000;
let shared: LstatWorker | undefined;

/**
 * lstat of `paths` on the shared lstat thread, or null when no thread can be had (the caller then does it
 * itself). A stat costs the main thread a few microseconds: over a 20,000-file tree that is as long as
 * the walk, so the two run side by side.
 */
export function lstatInWorker(root: string, paths: readonly string[]): Promise<Float64Array | null> {
  try {
    shared ??= new LstatWorker();
  } catch {
    return Promise.resolve(null);
  }
  return shared.lstat(root, paths).catch(() => null);
}

class LstatWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (stats: Float64Array) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    // execArgv: [] because the source is plain CommonJS: the host's flags (a loader, --input-type=module) must not apply to it.
    this.worker = new Worker(workerSource(), { eval: true, execArgv: [] });
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('the lstat worker stopped')));
  }

  lstat(root: string, paths: readonly string[]): Promise<Float64Array> {
    clearTimeout(this.idleTimer);
    if (this.waiting.size === 0) this.worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, root, paths });
    });
  }

  private settle({ id, stats }: Reply): void {
    this.waiting.get(id)?.resolve(stats);
    this.waiting.delete(id);
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
 * the esbuild bundles, while a function's own source travels with it. tsx compiles with keepNames, which
 * wraps nested functions in an `__name` helper; the stub makes that a no-op.
 */
function workerSource(): string {
  return [
    "'use strict';",
    'const __name = (target) => target;',
    "const fs = require('node:fs');",
    "const { parentPort } = require('node:worker_threads');",
    `const lstatAll = ${lstatAll.toString()};`,
    'parentPort.on("message", ({ id, root, paths }) => {',
    '  const stats = lstatAll(fs, root, paths);',
    '  parentPort.postMessage({ id, stats }, [stats.buffer]);',
    '});',
  ].join('\n');
}
