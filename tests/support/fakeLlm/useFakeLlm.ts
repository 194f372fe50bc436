import { afterEach, beforeEach, expect } from 'vitest';
import { startFakeLlm, type FakeLlm } from './server.js';
import type { FakeLlmOptions } from './types.js';

/**
 * A fresh fake model for every test of the calling suite, closed after it; a test that leaves the
 * fake with its own errors (script ran out, broken script) fails. Kept out of index.ts so benchmarks
 * can use the server without vitest.
 */
export function useFakeLlm(options: FakeLlmOptions = {}): () => FakeLlm {
  let llm: FakeLlm | undefined;
  beforeEach(async () => {
    llm = await startFakeLlm(options);
  });
  afterEach(async () => {
    const current = llm;
    llm = undefined;
    await current?.close();
    expect(current?.scriptErrors).toEqual([]);
  });
  return () => {
    if (!llm) throw new Error('useFakeLlm: the fake model exists only inside a test');
    return llm;
  };
}

/** For tests that start their fake model with their own options: `start(options)`, closed after each test. */
export function useFakeLlmStarter(): (options?: FakeLlmOptions) => Promise<FakeLlm> {
  const started: FakeLlm[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((llm) => llm.close()));
  });
  return async (options = {}) => {
    const llm = await startFakeLlm(options);
    started.push(llm);
    return llm;
  };
}
