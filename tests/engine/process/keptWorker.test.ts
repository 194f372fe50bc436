import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { KeptWorker } from '../../../engine/process/keptWorker.js';

const echo = "require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage({ id: m.id, got: m.n * 2 }));";

describe('KeptWorker', () => {
  it('matches each reply to its request, and a request that cannot be sent is refused without waiting for ever', async () => {
    let stopped = 0;
    const kept = new KeptWorker<{ id: number; got: number }>(new Worker(echo, { eval: true }), { idleMs: 60_000, name: 'the echo worker', onStop: () => (stopped += 1) });
    const replies = await Promise.all([kept.send({ n: 1 }), kept.send({ n: 2 })]);
    expect(replies.map((reply) => reply.got)).toEqual([2, 4]);

    // A function cannot cross to a thread: postMessage throws, and no reply would ever come.
    await expect(kept.send({ n: 3, callback: () => 3 })).rejects.toThrow(/could not be cloned/);
    expect((await kept.send({ n: 4 })).got).toBe(8);
    expect(stopped).toBe(0);
  });

  it('rejects what waits when the worker ends, and says the owner must start another', async () => {
    let stopped = 0;
    const worker = new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3));", { eval: true });
    const kept = new KeptWorker<{ id: number }>(worker, { idleMs: 60_000, name: 'the quitting worker', onStop: () => (stopped += 1) });
    await expect(kept.send({})).rejects.toThrow('the quitting worker stopped');
    expect(stopped).toBe(1);
  });
});
