import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) timer = setInterval(tick, 1000);
  tick();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

const stayStill = () => () => undefined;

/**
 * The current time, ticking once a second while `ticking` (one shared interval for every countdown and
 * timer on the page). Read from a store rather than during render, so renders stay pure.
 */
export function useNow(ticking = true): number {
  return useSyncExternalStore(ticking ? subscribe : stayStill, () => now);
}
