import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../engine/store/serialQueue.js';

describe('SerialQueue', () => {
  it('runs each task only after the one before it has finished, in call order', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const task = (name: string, steps: number) => async () => {
      log.push(`${name} start`);
      for (let step = 0; step < steps; step += 1) await Promise.resolve();
      log.push(`${name} end`);
      return name;
    };
    const results = Promise.all([queue.run(task('slow', 20)), queue.run(task('fast', 0)), queue.run(task('last', 5))]);
    expect(await results).toEqual(['slow', 'fast', 'last']);
    expect(log).toEqual(['slow start', 'slow end', 'fast start', 'fast end', 'last start', 'last end']);
  });

  it('goes on with the next task after one fails, handing the failure to its caller', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('disk full')));
    const next = queue.run(async () => 'ran');
    await expect(failed).rejects.toThrow('disk full');
    expect(await next).toBe('ran');
  });
});
