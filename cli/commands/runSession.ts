import type { StartedRun } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { LiveLine } from '../terminal/liveLine.js';
import { shownStderr } from '../terminal/shownStream.js';
import { terminalPrompter } from '../terminal/terminalPrompter.js';
import type { Answerer } from './answerApprovals.js';
import { CliError, exitCodes } from './cliError.js';
import { watchInterrupts } from './interrupts.js';
import { openSessionWorkbench, prepareSession } from './openSession.js';
import { preflight } from './preflight.js';
import { runRequest } from './requestRun.js';
import { cancelledLine, resumeCommand } from './runEnding.js';
import type { RunFlags } from './runFlags.js';

export interface RunSessionOptions {
  folder: string;
  flags: RunFlags;
  /** Starts the run on the opened workbench: send, resume or regenerate. */
  start: (workbench: Workbench) => Promise<StartedRun>;
}

/** Where a person can answer questions: both the keyboard and the screen are a terminal. */
export const isInteractive = () => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/** --review-plan asks on the terminal: refused up front where nobody can answer, unless --yes answers for them. */
export function checkReviewPlan(flags: RunFlags, interactive: boolean): void {
  if (flags.reviewPlan && !flags.yes && !interactive) {
    throw new CliError('--review-plan needs a terminal to answer on, and this is not one: run it in a terminal, or add --yes to approve the plan unseen.');
  }
}

/**
 * One run from the command line: settings resolved and the model server checked before anything
 * starts, the run shown (human or --json), approvals answered, Ctrl-C handled; resolves with the exit
 * code. The folder's lock is released before it returns, whatever happened.
 */
export async function runSession({ folder, flags, start }: RunSessionOptions): Promise<number> {
  const interactive = isInteractive();
  checkReviewPlan(flags, interactive);
  const startedAt = Date.now();
  const live = new LiveLine(shownStderr, !flags.json && shownStderr.isTTY);
  // Nothing is created in the folder before the model server answered: a run that cannot start leaves no trace.
  const setup = await prepareSession(folder, flags);
  const resume = resumeCommand(setup.folder);
  let workbench: Workbench | null = null;
  const interrupts = watchInterrupts({
    first: () => {
      live.log('Cancelling… (press Ctrl-C again to stop at once)');
      void workbench?.request('session:cancel');
    },
    again: () => {
      shownStderr.text(`\nStopped at once. ${cancelledLine(resume)}\n`);
      process.exit(exitCodes.interrupted);
    },
  });
  try {
    const { settings } = setup;
    await preflight({ settings, warn: (message) => live.log(`rpi-workbench: warning: ${message}`), note: (message) => live.log(message), signal: interrupts.signal });
    if (interrupts.signal.aborted) {
      live.log('Cancelled before the run started.');
      return exitCodes.failed;
    }
    workbench = await openSessionWorkbench({ setup, log: (line) => live.log(line) });
    const answerer: Answerer = flags.yes ? { kind: 'yes' } : interactive ? { kind: 'ask', prompter: terminalPrompter(live, interrupts.interrupt) } : { kind: 'deny' };
    const result = await runRequest({ workbench, start, answerer, interrupts, live, json: Boolean(flags.json), startedAt, resumeCommand: resume, resumeHint: resume });
    return result.status === 'done' ? exitCodes.done : exitCodes.failed;
  } finally {
    live.stop();
    interrupts.dispose();
    await workbench?.close();
  }
}
