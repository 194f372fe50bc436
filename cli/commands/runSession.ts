import { checkFolder, hostEnvironment, openWorkbench, type RunResult, type StartedRun, type Workbench } from '../../engine/index.js';
import { AllowedCommands, configDir } from '../../engine/settings/index.js';
import { HumanOutput } from '../terminal/humanOutput.js';
import { jsonOutput } from '../terminal/jsonOutput.js';
import { LiveLine } from '../terminal/liveLine.js';
import type { RunOutput } from '../terminal/runOutput.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { terminalPrompter } from '../terminal/terminalPrompter.js';
import { answerApprovals, type Answerer } from './answerApprovals.js';
import { statLines, wantsColour, writeStyled } from '../terminal/diffText.js';
import { CliError, exitCodes, messageOf } from './cliError.js';
import { watchInterrupts, type Interrupts } from './interrupts.js';
import { mcpSelection } from './mcpSelection.js';
import { preflight } from './preflight.js';
import { requireModel, resolveSettings } from './resolveSettings.js';
import { cancelledLine, endingLines, resumeCommand } from './runEnding.js';
import type { RunFlags } from './runFlags.js';

export interface RunSessionOptions {
  folder: string;
  flags: RunFlags;
  /** Starts the run on the opened workbench: send, resume or regenerate. */
  start: (workbench: Workbench) => Promise<StartedRun>;
}

/** Where a person can answer questions: both the keyboard and the screen are a terminal. */
const isInteractive = () => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/**
 * One run from the command line: settings resolved and the model server checked before anything
 * starts, the run shown (human or --json), approvals answered, Ctrl-C handled; resolves with the exit
 * code. The folder's lock is released before it returns, whatever happened.
 */
export async function runSession({ folder, flags, start }: RunSessionOptions): Promise<number> {
  const interactive = isInteractive();
  if (flags.reviewPlan && !flags.yes && !interactive) {
    throw new CliError('--review-plan needs a terminal to answer on, and this is not one: run it in a terminal, or add --yes to approve the plan unseen.');
  }
  const startedAt = Date.now();
  const live = new LiveLine(shownStderr, !flags.json && shownStderr.isTTY);
  const userConfig = configDir();
  const settings = await resolveSettings({ flags, env: hostEnvironment(), configDir: userConfig });
  requireModel(settings);
  const mcp = await mcpSelection(flags, userConfig);
  // Nothing is created in the folder before the model server answered: a run that cannot start leaves no trace.
  const realFolder = await checkFolder(folder);
  const resume = resumeCommand(realFolder);
  let workbench: Workbench | null = null;
  const interrupts = watchInterrupts({
    first: () => {
      live.log('Cancelling… (press Ctrl-C again to stop at once)');
      void workbench?.cancel();
    },
    again: () => {
      shownStderr.text(`\nStopped at once. ${cancelledLine(resume)}\n`);
      process.exit(exitCodes.interrupted);
    },
  });
  try {
    await preflight({ settings, warn: (message) => live.log(`rpi-workbench: warning: ${message}`), note: (message) => live.log(message), signal: interrupts.signal });
    if (interrupts.signal.aborted) {
      live.log('Cancelled before the run started.');
      return exitCodes.failed;
    }
    workbench = await openWorkbench(realFolder, {
      llmSettings: async () => settings.llm,
      approvals: async () => settings.approvals,
      allowedCommands: new AllowedCommands(userConfig),
      ...(mcp ? { mcp } : {}),
      env: hostEnvironment(),
    });
    for (const warning of (await workbench.snapshot()).warnings) live.log(`rpi-workbench: warning: ${warning}`);
    // Servers that failed while the folder was being opened; later news comes as events.
    for (const status of workbench.mcp?.statuses() ?? []) if (status.state === 'failed') live.log(`rpi-workbench: warning: MCP server ${status.name}: ${status.error ?? 'it failed'}`);
    const answerer: Answerer = flags.yes ? { kind: 'yes' } : interactive ? { kind: 'ask', prompter: terminalPrompter(live, interrupts.interrupt) } : { kind: 'deny' };
    const output = outputFor(flags, live, startedAt);
    const { result, messageId } = await watchRun({ workbench, output, answerer, interrupts, live, resume, start });
    for (const line of endingLines(result, { interrupted: interrupts.signal.aborted, resume })) live.log(line);
    if (!flags.json && shownStderr.isTTY) await printChangeStat(workbench, messageId, (message) => live.log(message));
    return result.status === 'done' ? exitCodes.done : exitCodes.failed;
  } finally {
    live.stop();
    interrupts.dispose();
    await workbench?.close();
  }
}

/** --json: the events on stdout; otherwise progress on stderr and the summary on stdout, streamed when stdout is a terminal. */
function outputFor(flags: RunFlags, live: LiveLine, startedAt: number): RunOutput {
  if (flags.json) return jsonOutput(shownStdout);
  return new HumanOutput({ log: live, stdout: shownStdout, streamSummary: shownStdout.isTTY, startedAt });
}

interface WatchRunOptions extends Pick<RunSessionOptions, 'start'> {
  workbench: Workbench;
  output: RunOutput;
  answerer: Answerer;
  interrupts: Interrupts;
  live: LiveLine;
  resume: string;
}

/** The run's changes as `diff --stat` shows them, last on the terminal; nothing when no file changed. */
async function printChangeStat(workbench: Workbench, messageId: string, warn: (message: string) => void): Promise<void> {
  try {
    const lines = statLines((await workbench.changes(messageId)).files, shownStderr.columns ?? 80);
    writeStyled(shownStderr, lines, wantsColour(shownStderr, hostEnvironment()));
  } catch (error) {
    warn(`rpi-workbench: warning: the changed files could not be counted: ${messageOf(error)}`);
  }
}

/** Starts the run with its output and its answerer attached, and waits for it to finish. */
async function watchRun({ workbench, output, answerer, interrupts, live, resume, start }: WatchRunOptions): Promise<{ result: RunResult; messageId: string }> {
  const stopOutput = workbench.subscribe((event) => output.handle(event));
  const stopAnswering = answerApprovals({ workbench, answerer, note: (text) => live.log(text), resumeCommand: resume });
  let result: RunResult | null = null;
  try {
    const started = await start(workbench);
    // A Ctrl-C while the run was being set up found nothing to cancel yet.
    if (interrupts.signal.aborted) await workbench.cancel();
    result = await started.finished;
    return { result, messageId: started.messageId };
  } finally {
    output.finish(result);
    stopOutput();
    stopAnswering();
  }
}
