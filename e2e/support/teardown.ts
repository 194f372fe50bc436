/**
 * Cleanups for the current test, registered right after each setup step succeeds, so a setup that
 * failed halfway (a browser that never launched, a server that never started) undoes only what it
 * did and its teardown never fails a second time on what does not exist.
 */
const cleanups: (() => Promise<unknown>)[] = [];

export function afterTest(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/** The specs' afterEach: runs the cleanups, last registered first, all of them even when one fails. */
export async function runTeardown(): Promise<void> {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
}
