import type { StartedRun } from '../../engine/contract/index.js';
import { hostEnvironment, type RunResult, type Workbench } from '../../engine/index.js';
import { statLines, wantsColour, writeStyled } from '../terminal/diffText.js';
import { HumanOutput } from '../terminal/humanOutput.js';
import { jsonOutput } from '../terminal/jsonOutput.js';
import type { LiveLine } from '../terminal/liveLine.js';
import type { RunOutput } from '../terminal/runOutput.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { answerApprovals, type Answerer } from './answerApprovals.js';
import { messageOf } from './cliError.js';
import type { Interrupts } from './interrupts.js';
import { endingLines } from './runEnding.js';

export interface RequestRunOptions {
  workbench: Workbench;
  /** Starts the run on the open workbench: send, resume, retry or regenerate. */
  start: (workbench: Workbench) => Promise<StartedRun>;
  answerer: Answerer;
  /** This run's Ctrl-C: the first one cancels it. */
  interrupts: Interrupts;
  /** Progress on stderr, under a live status line on a terminal; stopped when the run ends. */
  live: LiveLine;
  /** --json: every event on stdout, nothing else. */
  json: boolean;
  startedAt: number;
  /** `rpi-workbench resume <folder>`: what the notes of unanswered approvals and plan reviews advise. */
  resumeCommand: string;
  /** How to go on with a run that stopped, in its last lines: the resume command, or `/resume` in chat. */
  resumeHint: string;
  /** Prints the summary once the run is done (chat formats its Markdown); without it, it streams to stdout on a terminal. */
  printSummary?: (summary: string) => void;
}

/**
 * One run on an open workbench, shown as `run` shows it: progress (or --json events), approvals answered,
 * the summary on stdout, then what stopped it and how to go on, and the files it changed (`diff --stat`)
 * on a terminal. Resolves with the run's result; throws when the run could not start (refused by the engine).
 */
export async function runRequest(options: RequestRunOptions): Promise<RunResult> {
  const { workbench, live, interrupts, json, resumeHint } = options;
  const output = outputFor(options);
  const stopOutput = workbench.subscribe((event) => output.handle(event));
  const stopAnswering = answerApprovals({ workbench, answerer: options.answerer, note: (text) => live.log(text), resumeCommand: options.resumeCommand });
  let result: RunResult | null = null;
  let messageId: string;
  try {
    const started = await options.start(workbench);
    messageId = started.messageId;
    // A Ctrl-C while the run was being set up found nothing to cancel yet.
    if (interrupts.signal.aborted) await workbench.request('session:cancel');
    result = await workbench.finished(started.runId);
  } finally {
    // Unsubscribed even when finishing the output throws: a later run on this workbench (chat) must not be shown or answered twice.
    try {
      output.finish(result);
    } finally {
      stopOutput();
      stopAnswering();
    }
  }
  for (const line of endingLines(result, { interrupted: interrupts.signal.aborted, resume: resumeHint })) live.log(line);
  if (!json && shownStderr.isTTY) await printChangeStat(workbench, messageId, (message) => live.log(message));
  return result;
}

/** --json: the events on stdout; otherwise progress on stderr and the summary on stdout, streamed when stdout is a terminal. */
function outputFor({ json, live, startedAt, printSummary }: RequestRunOptions): RunOutput {
  if (json) return jsonOutput(shownStdout);
  return new HumanOutput({ log: live, stdout: shownStdout, streamSummary: shownStdout.isTTY && !printSummary, startedAt, ...(printSummary ? { printSummary } : {}) });
}

/** The run's changes as `diff --stat` shows them, last on the terminal; nothing when no file changed. */
async function printChangeStat(workbench: Workbench, messageId: string, warn: (message: string) => void): Promise<void> {
  try {
    const lines = statLines((await workbench.request('changes:list', { messageId })).files, shownStderr.columns ?? 80);
    writeStyled(shownStderr, lines, wantsColour(shownStderr, hostEnvironment()));
  } catch (error) {
    warn(`rpi-workbench: warning: the changed files could not be counted: ${messageOf(error)}`);
  }
}
