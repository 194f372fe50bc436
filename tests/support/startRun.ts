import type { ContextItem, StartedRun } from '../../engine/contract/index.js';
import type { RunResult, Workbench } from '../../engine/index.js';

/** A run started in process, with the promise of how it ends. */
export interface TestRun extends StartedRun {
  /** Settles when the run has stopped and `run-finished` was emitted. */
  finished: Promise<RunResult>;
}

/** Sends a request (`session:send`) and gives its run. */
export function startRun(workbench: Workbench, prompt: string, options: { context?: ContextItem[] } = {}): Promise<TestRun> {
  return followRun(workbench, workbench.request('session:send', { prompt, ...options }));
}

/** The run a request started (send, resume, retry, regenerate), with the promise of its end. */
export async function followRun(workbench: Workbench, request: Promise<StartedRun>): Promise<TestRun> {
  const started = await request;
  return { ...started, finished: workbench.finished(started.runId) };
}
