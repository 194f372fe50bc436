import { setTimeout as delay } from 'node:timers/promises';

/** Polls for a condition a test observes until `done` holds or `ms` have passed, and gives the last value seen; never a sleep standing in for it. */
export async function within<T>(ms: number, probe: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = performance.now() + ms;
  let value = await probe();
  while (!done(value) && performance.now() < deadline) {
    await delay(25);
    value = await probe();
  }
  return value;
}
