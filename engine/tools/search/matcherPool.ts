import type { BatchResult, MatchBatch, MatchJob, RegexSpec } from './matchMessages.js';
import { borrowWorker, endWorker, progressEpoch, returnWorker, type SearchWorker } from './workerShelf.js';

export interface MatcherPoolOptions {
  root: string;
  regex: RegexSpec;
  /** Matches any one batch needs at most. */
  limit: number;
  workers: number;
  maxLineChars: number;
  sniffLength: number;
  chunkBytes: number;
  /** Aborting terminates the workers and rejects every pending search with the signal's reason. */
  signal: AbortSignal;
}

/** One batch waiting for its result; a shared one sits in every lane's queue at once. */
interface Pending {
  batch: MatchBatch;
  resolve: (result: BatchResult) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  lent: SearchWorker;
  /** Every batch sent to this worker and not yet answered, taken by it or by another. */
  queue: Pending[];
  detach: () => void;
}

/**
 * Batches a worker holds at once: enough that it never idles while the walking thread is busy or waits
 * for its turn on a loaded machine, as each hand-over between the threads costs a wake-up.
 */
const laneDepth = 8;
/** How many batches a worker held up may have waiting (shared batches reach every worker) before it is sent no more. */
const maxLaneDepth = 8 * laneDepth;
/** Batches a search shares out among its workers (see MatchJob.claims); later ones go to one worker each. */
const sharedBatches = 1 << 16;
/** How long a worker may take to finish the batches no longer wanted before it is ended rather than kept. */
const drainMs = 2_000;
let jobs = 0;

/**
 * The worker threads of one search, fed batches of files. The regex runs off the main thread so a
 * pattern that backtracks for ever cannot freeze the engine: the pool says which file a worker has
 * been on for how long (`slowest`), and failing (the signal, or a worker error) terminates the
 * workers, which stops a regex mid-run. On close, idle workers go back to be reused.
 */
export class MatcherPool {
  private readonly job: MatchJob;
  private lanes: Lane[];
  private readonly waitingForRoom: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private ended: { error: unknown } | null = null;
  private nextBatch = 0;
  private readonly onAbort = () => this.fail(this.options.signal.reason);

  constructor(private readonly options: MatcherPoolOptions) {
    const { root, regex, limit, maxLineChars, sniffLength, chunkBytes } = options;
    this.job = { id: jobs++, root, regex, limit, maxLineChars, sniffLength, chunkBytes, claims: new SharedArrayBuffer(sharedBatches) };
    this.lanes = Array.from({ length: options.workers }, () => this.lend(borrowWorker()));
    options.signal.addEventListener('abort', this.onAbort, { once: true });
    if (options.signal.aborted) this.onAbort();
  }

  /** Resolves once a worker can take another batch; rejects once the pool has failed. */
  room(): Promise<void> {
    if (this.ended) return Promise.reject(this.ended.error);
    if (this.lanes.some((lane) => lane.queue.length < laneDepth)) return Promise.resolve();
    return new Promise((resolve, reject) => this.waitingForRoom.push({ resolve, reject }));
  }

  /**
   * Searches `files` (paths from the root); `first` is the first one's sequence number. The batch is sent
   * to every worker without too many waiting and searched by the first free one (see MatchJob.claims), or
   * past the shared ones by the least busy.
   */
  search(files: string[], first: number): Promise<BatchResult> {
    if (this.ended) return Promise.reject(this.ended.error);
    const id = this.nextBatch++;
    const shared = id < sharedBatches;
    const lanes = shared
      ? this.lanes.filter((lane) => lane.queue.length < maxLaneDepth)
      : [this.lanes.reduce((best, candidate) => (candidate.queue.length < best.queue.length ? candidate : best))];
    const batch: MatchBatch = { id, job: this.job, first, files, shared };
    return new Promise((resolve, reject) => {
      for (const lane of lanes) {
        lane.queue.push({ batch, resolve, reject });
        lane.lent.worker.postMessage(batch);
      }
    });
  }

  /** The file a worker has been searching the longest right now, or null when all are idle. */
  slowest(): { path: string; ms: number } | null {
    const now = Date.now() - progressEpoch;
    let slowest: { path: string; ms: number } | null = null;
    for (const { lent, queue } of this.lanes) {
      const sequence = Atomics.load(lent.progress, 0) - 1;
      const batch = queue.find(({ batch: { first, files } }) => sequence >= first && sequence < first + files.length)?.batch;
      const ms = (now - Atomics.load(lent.progress, 1)) | 0;
      if (batch && (!slowest || ms > slowest.ms)) slowest = { path: batch.files[sequence - batch.first]!, ms };
    }
    return slowest;
  }

  /**
   * Gives the workers back for later searches; pending searches are rejected. An idle worker goes back
   * at once, a busy one once it has skipped the batches no longer wanted (it stops at its next file).
   * Resolves when every worker is back, or ended.
   */
  close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    const back = this.lanes.map((lane) => this.giveBack(lane));
    this.lanes = [];
    this.fail(new Error('the search was closed'));
    return Promise.all(back).then(() => undefined);
  }

  /**
   * Returns a lane's worker to the shelf, calling off this search's batches still queued on it first; a
   * worker that has not handed them back within `drainMs` (a regex still running on one file) is ended.
   */
  private giveBack(lane: Lane): Promise<void> {
    lane.detach();
    let left = lane.queue.length;
    for (const pending of lane.queue.splice(0)) pending.reject(new Error('the search was closed'));
    if (left === 0) {
      returnWorker(lane.lent);
      return Promise.resolve();
    }
    Atomics.store(lane.lent.progress, 2, this.job.id);
    const { worker } = lane.lent;
    return new Promise((resolve) => {
      const onMessage = () => {
        left -= 1;
        if (left > 0) return;
        clearTimeout(giveUp);
        worker.off('message', onMessage);
        returnWorker(lane.lent);
        resolve();
      };
      const giveUp = setTimeout(() => {
        worker.off('message', onMessage);
        endWorker(lane.lent);
        resolve();
      }, drainMs).unref();
      worker.on('message', onMessage);
    });
  }

  private lend(lent: SearchWorker): Lane {
    const queue: Pending[] = [];
    const onMessage = (result: BatchResult) => {
      const answered = queue.shift();
      if (result.taken) answered?.resolve(result);
      for (const waiter of this.waitingForRoom.splice(0)) waiter.resolve();
    };
    const onError = (error: unknown) => this.fail(error);
    const onExit = (code: number) => this.fail(new Error(`a search worker stopped unexpectedly (exit code ${code})`));
    lent.worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    return { lent, queue, detach: () => lent.worker.off('message', onMessage).off('error', onError).off('exit', onExit) };
  }

  /** Ends the pool: every worker still lent is terminated, whatever it is doing. */
  private fail(error: unknown): void {
    if (this.ended) return;
    this.ended = { error };
    this.options.signal.removeEventListener('abort', this.onAbort);
    for (const lane of this.lanes) {
      lane.detach();
      endWorker(lane.lent);
      for (const pending of lane.queue.splice(0)) pending.reject(error);
    }
    for (const waiter of this.waitingForRoom.splice(0)) waiter.reject(error);
  }
}
