import { createHook } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import { constants, closeSync, openSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** libuv's thread pool, as this process was started with it. */
const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

export interface BusyThreadPool {
  /** Whether a file-system call queued after the pool was taken has still not been served. */
  stillBusy(): boolean;
  /** Frees every thread of the pool; waits until they are back. Once; later calls wait on the first. */
  release(): Promise<void>;
}

/**
 * Takes every thread of libuv's pool, each blocked opening a FIFO that no one writes, so that anything
 * asynchronous on files waits until `release`. A test then shows a piece of work does not go through the
 * pool: it finishes while `stillBusy()` is true. POSIX only (mkfifo).
 */
export async function takeThreadPool(folder: string): Promise<BusyThreadPool> {
  const fifos = Array.from({ length: poolSize }, (_, index) => path.join(folder, `pool-${index}.fifo`));
  for (const fifo of fifos) {
    const made = spawnSync('mkfifo', [fifo]);
    if (made.status !== 0) throw new Error(`mkfifo ${fifo} failed: ${made.stderr}`);
  }
  const blocked: Promise<FileHandle>[] = fifos.map((fifo) => open(fifo, 'r'));
  let served = false;
  const probe = stat(folder).then(() => {
    served = true;
  });
  let released: Promise<void> | null = null;
  const release = async () => {
    for (const fifo of fifos) {
      // The open for writing succeeds once the pool's thread is waiting in its open for reading.
      for (;;) {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
          await nextTurn();
        }
      }
    }
    await Promise.all(blocked.map(async (handle) => (await handle).close()));
    await probe;
  };
  return {
    stillBusy: () => !served,
    release: () => (released ??= release()),
  };
}

/**
 * Whether `promise` settles within `turns` turns of the event loop: what needs no thread of the pool
 * settles within a turn or two, so a bounded wait tells it apart from what waits on a taken pool.
 */
export async function settlesWithin(promise: Promise<unknown>, turns = 200): Promise<boolean> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  promise.then(mark, mark);
  for (let turn = 0; turn < turns && !settled; turn += 1) await nextTurn();
  return settled;
}

/** How many file-system requests went to libuv's thread pool while `work` ran (their async resources, counted as they are made). */
export async function poolRequestsDuring(work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const hook = createHook({
    init(_id, type) {
      if (type.startsWith('FSREQ') || type.startsWith('FILEHANDLE')) count += 1;
    },
  }).enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return count;
}
