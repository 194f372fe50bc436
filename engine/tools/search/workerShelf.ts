import { Worker } from 'node:worker_threads';
import type { MatchWorkerData } from './matchMessages.js';
import { runMatchWorker } from './matchWorker.js';

/** A search worker thread and its shared progress slots (see MatchWorkerData): [file, since, job called off]. */
export interface SearchWorker {
  readonly worker: Worker;
  readonly progress: Int32Array;
}

/** The origin of the workers' progress stamps. */
export const progressEpoch = Date.now();

const maxIdle = 8;
let started = 0;
/** Every worker started and not yet exited, lent or idle. */
const live = new Set<SearchWorker>();

/** Worker threads started so far in this process: each costs tens of milliseconds, so searches reuse them. */
export function searchWorkersStarted(): number {
  return started;
}
const idleMs = 60_000;
const idle: SearchWorker[] = [];
let idleTimer: NodeJS.Timeout | undefined;

/**
 * A worker for one search: a kept one if any, else a new one. Workers are kept between searches
 * because starting one costs tens of milliseconds of CPU, more than many whole searches take.
 */
export function borrowWorker(): SearchWorker {
  const kept = idle.pop();
  if (!kept) return startWorker();
  kept.worker.ref();
  return kept;
}

/** Takes back a worker with nothing left to do. Kept workers never keep the process alive and end after a minute unused. */
export function returnWorker(lent: SearchWorker): void {
  if (idle.length >= maxIdle) {
    endWorker(lent);
    return;
  }
  lent.worker.unref();
  idle.push(lent);
  keepIdleAMinute();
}

/**
 * Starts workers until `count` are alive, waiting on the shelf, and keeps the idle ones another minute:
 * a search that comes soon then finds them started, rather than paying for their start.
 */
export function warmWorkers(count: number): void {
  try {
    for (let alive = live.size; alive < count; alive += 1) {
      const warmed = startWorker();
      warmed.worker.unref();
      idle.push(warmed);
    }
  } catch {
    // no thread can be had now: the search starts its own, or says why it cannot
  }
  keepIdleAMinute();
}

/**
 * Ends a worker now, whatever it is doing. It stops counting as alive at once rather than when its exit
 * comes in, so warming right after a search was stopped starts the workers it will need.
 */
export function endWorker(lent: SearchWorker): void {
  live.delete(lent);
  void lent.worker.terminate();
}

function keepIdleAMinute(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => idle.splice(0).forEach(endWorker), idleMs).unref();
}

function startWorker(): SearchWorker {
  const progress = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  const workerData: MatchWorkerData = { progress, epoch: progressEpoch };
  started += 1;
  // execArgv: [] because the worker's source is plain CommonJS: the host's flags (a loader, --input-type=module) must not apply to it.
  const slots = new Int32Array(progress);
  Atomics.store(slots, 2, -1);
  const searchWorker = { worker: new Worker(workerSource(), { eval: true, workerData, execArgv: [] }), progress: slots };
  live.add(searchWorker);
  const forget = () => {
    live.delete(searchWorker);
    const at = idle.indexOf(searchWorker);
    if (at !== -1) idle.splice(at, 1);
  };
  searchWorker.worker.on('error', forget).on('exit', forget);
  return searchWorker;
}

let source: string | undefined;

/**
 * The worker's code as text, run with `eval: true`: a separate worker file could not be found from
 * inside the esbuild bundles, while a function's own source travels with it. tsx compiles with
 * keepNames, which wraps nested functions in an `__name` helper; the stub makes that a no-op.
 */
function workerSource(): string {
  source ??= [
    "'use strict';",
    'const __name = (target) => target;',
    "const { parentPort, workerData } = require('node:worker_threads');",
    `(${runMatchWorker.toString()})({ fs: require('node:fs'), port: parentPort, data: workerData });`,
  ].join('\n');
  return source;
}
