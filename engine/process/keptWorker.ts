import type { Transferable, Worker } from 'node:worker_threads';

export interface KeptWorkerOptions {
  /** Idle this long, the worker ends. */
  idleMs: number;
  /** Says what stopped in the error every waiting request gets, e.g. "the diff worker". */
  name: string;
  /** Called once the worker can serve no more (it failed or ended): the owner starts a new one next time. */
  onStop: () => void;
}

/**
 * A worker thread that answers requests one reply each (matched by `id`), kept between them: it keeps the
 * process alive only while a request waits, and ends after `idleMs` without one. An error or an exit
 * rejects every waiting request.
 */
export class KeptWorker<Reply extends { id: number }> {
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly worker: Worker,
    private readonly options: KeptWorkerOptions,
  ) {
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => this.fail(new Error(`${options.name} stopped`)));
  }

  /** Posts `message` with a fresh `id` and resolves with the reply that carries it. */
  send(message: object, transfer: readonly Transferable[] = []): Promise<Reply> {
    clearTimeout(this.idleTimer);
    if (this.waiting.size === 0) this.worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...message, id }, [...transfer]);
      } catch (error) {
        // Not sent (e.g. a buffer already handed over): nothing will answer it.
        this.waiting.delete(id);
        this.idleIfDone();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private settle(reply: Reply): void {
    this.waiting.get(reply.id)?.resolve(reply);
    this.waiting.delete(reply.id);
    this.idleIfDone();
  }

  private idleIfDone(): void {
    if (this.waiting.size > 0) return;
    this.worker.unref();
    this.idleTimer = setTimeout(() => void this.worker.terminate(), this.options.idleMs).unref();
  }

  private fail(error: Error): void {
    this.options.onStop();
    clearTimeout(this.idleTimer);
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}
