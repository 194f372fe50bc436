import os from 'node:os';
import { MatcherPool } from './matcherPool.js';
import { warmWorkers } from './workerShelf.js';
import type { RegexSpec } from './matchMessages.js';
import { OrderedResults, type SearchTally } from './orderedResults.js';
import { SearchTimeoutError } from './searchErrors.js';
import { sniffLength } from '../../files/fileKind.js';

export interface SearchLimits {
  /** How long the regex may spend on one file (or one `chunkBytes` piece of a large one). */
  fileMs: number;
  /** How long the whole search may take. */
  totalMs: number;
  workers: number;
  /** Files handed to a worker at a time. */
  batchSize: number;
  maxLineChars: number;
  chunkBytes: number;
}

export const defaultSearchLimits: SearchLimits = {
  fileMs: 5_000,
  totalMs: 60_000,
  workers: Math.min(4, os.availableParallelism()),
  batchSize: 256,
  maxLineChars: 300,
  chunkBytes: 8 * 1024 * 1024,
};


/**
 * Starts the search workers ahead of a search that may come (see warmWorkers): starting them costs a
 * first search more than the rest of it on a small folder.
 */
export function warmSearchWorkers(): void {
  warmWorkers(defaultSearchLimits.workers);
}

export interface SearchRequest {
  /** Real path of the workspace root. */
  root: string;
  /** Paths from the root, in the order results should come in, a run of them at a time (see candidateFiles). */
  files: AsyncIterable<readonly string[]>;
  regex: RegexSpec;
  maxResults: number;
  signal: AbortSignal;
  limits?: Partial<SearchLimits>;
}

export interface SearchOutcome extends SearchTally {
  /** Whether more matches exist than the `maxResults` in `files`. */
  capped: boolean;
}

/**
 * Searches files with a regex on worker threads and returns the first `maxResults` matching lines in
 * file order. Stops early once they are found; throws SearchTimeoutError when the regex stalls on a
 * file or the search overruns, and the signal's reason when it is aborted.
 */
export async function runSearch(request: SearchRequest): Promise<SearchOutcome> {
  const limits = { ...defaultSearchLimits, ...request.limits };
  const stop = new AbortController();
  const signal = AbortSignal.any([request.signal, stop.signal]);
  const results = new OrderedResults(request.maxResults + 1);
  const { workers, maxLineChars, chunkBytes } = limits;
  const pool = new MatcherPool({ root: request.root, regex: request.regex, limit: request.maxResults + 1, workers, maxLineChars, chunkBytes, sniffLength, signal });
  const watchdog = startWatchdog({ pool, limits, results, stop });
  try {
    const batches = await dispatch({ request, pool, results, signal, batchSize: limits.batchSize });
    await Promise.race([Promise.all(batches), results.full]);
    if (!results.isFull) signal.throwIfAborted();
    return trimmed(results.tally, request.maxResults);
  } finally {
    clearInterval(watchdog);
    void pool.close();
  }
}

/** Walks the files into batches for the pool, as fast as it has room; returns the batches in flight. */
async function dispatch(options: {
  request: SearchRequest;
  pool: MatcherPool;
  results: OrderedResults;
  signal: AbortSignal;
  batchSize: number;
}): Promise<Promise<void>[]> {
  const { request, pool, results, signal, batchSize } = options;
  const batches: Promise<void>[] = [];
  let batch: string[] = [];
  let first = 0;
  const send = async () => {
    const index = batches.length;
    const searched = pool.search(batch, first).then((result) => results.add(index, result));
    searched.catch(() => {}); // the failure is the signal's reason, thrown by the caller
    batches.push(searched);
    first += batch.length;
    batch = [];
    await pool.room();
  };
  for await (const run of request.files) {
    signal.throwIfAborted();
    if (results.isFull) return batches;
    for (const file of run) {
      batch.push(file);
      if (batch.length === batchSize) await send();
    }
  }
  if (batch.length > 0) await send();
  return batches;
}

function startWatchdog(options: { pool: MatcherPool; limits: SearchLimits; results: OrderedResults; stop: AbortController }): NodeJS.Timeout {
  const { pool, limits, results, stop } = options;
  const started = Date.now();
  const tick = Math.max(10, Math.min(250, limits.fileMs / 4, limits.totalMs / 4));
  return setInterval(() => {
    const slowest = pool.slowest();
    if (slowest && slowest.ms > limits.fileMs) {
      stop.abort(
        new SearchTimeoutError(
          `search_files gave up: the pattern ran for more than ${seconds(limits.fileMs)} on ${slowest.path} without finishing. ` +
            'Patterns with nested repetition such as (a+)+ or (.*)*x can take exponential time on some lines; ' +
            'rewrite it without nested quantifiers, or leave that file out with path or glob.',
        ),
      );
    } else if (Date.now() - started > limits.totalMs) {
      stop.abort(
        new SearchTimeoutError(
          `search_files gave up after ${seconds(limits.totalMs)} (${results.tally.searched.toLocaleString('en-US')} files searched by then). ` +
            'Narrow it with path or glob, or make the pattern more specific.',
        ),
      );
    }
  }, tick);
}

function trimmed(tally: SearchTally, maxResults: number): SearchOutcome {
  if (tally.matches <= maxResults) return { ...tally, capped: false };
  const files = [...tally.files];
  const last = files.pop()!;
  const keep = last.lines.length - (tally.matches - maxResults);
  if (keep > 0) files.push({ path: last.path, lines: last.lines.slice(0, keep), texts: last.texts.slice(0, keep) });
  return { ...tally, files, matches: maxResults, capped: true };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
