import type { WorkbenchStore } from '../../renderer/src/store/workbenchStore.js';

/** Resolves once the store satisfies `done`. */
export function until(store: WorkbenchStore, done: (state: ReturnType<WorkbenchStore['getState']>) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (!done(state)) return;
      stop();
      resolve();
    });
  });
}
