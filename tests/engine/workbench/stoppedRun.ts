import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import type { RunOptions, RunResult, Workbench } from '../../../engine/index.js';
import type { FakeLlm } from '../../support/fakeLlm/index.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun, type TestRun } from '../../support/startRun.js';

/** The first event from now on that matches; subscribe before the action that causes it. */
export function nextEvent(workbench: Workbench, match: (event: WorkbenchEvent) => boolean): Promise<WorkbenchEvent> {
  return new Promise((resolve) => {
    const stop = workbench.subscribe((event) => {
      if (!match(event)) return;
      stop();
      resolve(event);
    });
  });
}

export const researchText = 'notes.txt holds two lines.';
export const twoSteps = planText('First', 'Second');

export interface StoppedRun {
  workbench: Workbench;
  /** Every event since the workbench was opened. */
  events: WorkbenchEvent[];
  started: TestRun;
  result: RunResult;
}

export interface StoppedRunOptions {
  open: (folder: string, options?: RunOptions) => Promise<Workbench>;
  llm: FakeLlm;
  root: string;
  /** Called while step 2's command runs, just before the cancel. */
  whileRunning?: (workbench: Workbench) => Promise<void>;
}

/**
 * A run of "Two steps" that wrote one.txt in step 1 and was cancelled during step 2's command
 * (`sleep 30`): research and plan on disk, step 1 done, step 2 pending, the request resumable.
 */
export async function cancelledAtStepTwo(options: StoppedRunOptions): Promise<StoppedRun> {
  const { open, llm, root } = options;
  llm.enqueue(
    say(researchText),
    say(twoSteps),
    call('write_file', { path: 'one.txt', content: '1\n' }),
    say('First done.'),
    call('run_command', { command: 'sleep 30' }),
  );
  const workbench = await open(root, fakeModelOptions(llm));
  const events = recordEvents(workbench);
  const commandStarted = nextEvent(workbench, (event) => event.type === 'tool-started' && event.tool === 'run_command');
  const started = await startRun(workbench, 'Two steps');
  await commandStarted;
  await options.whileRunning?.(workbench);
  await workbench.request('session:cancel');
  return { workbench, events, started, result: await started.finished };
}
