import type * as NodeFs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { KeptWorker } from '../process/keptWorker.js';

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
let shared: KeptWorker<Reply> | undefined;

/**
 * lstat of `paths` on the shared lstat thread, or null when no thread can be had (the caller then does it
 * itself). A stat costs the main thread a few microseconds: over a 20,000-file tree that is as long as
 * the walk, so the two run side by side.
 */
export function lstatInWorker(root: string, paths: readonly string[]): Promise<Float64Array | null> {
  try {
    // execArgv: [] because the source is plain CommonJS: the host's flags (a loader, --input-type=module) must not apply to it.
    shared ??= new KeptWorker<Reply>(new Worker(workerSource(), { eval: true, execArgv: [] }), { idleMs, name: 'the lstat worker', onStop: () => (shared = undefined) });
  } catch {
    return Promise.resolve(null);
  }
  return shared.send({ root, paths }).then(
    (reply) => reply.stats,
    () => null,
  );
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
