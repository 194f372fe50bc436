import { z } from 'zod';
import { CommandCancelledError, CommandLostError, CommandStartError, runShellCommand, type CommandOutcome } from '../process/runShellCommand.js';
import { ToolError, defineTool, type ToolContext } from './tool.js';

/** run_command's timeout when the call names none; a check runs with it too. */
export const defaultTimeoutS = 120;
const maxTimeoutS = 600;
/** Head and tail together stay under the context cap of one result (resultCap.ts), so the model sees both ends without recalling. */
const outputLimits = { headBytes: 6 * 1024, tailBytes: 12 * 1024 };
const shellName = process.platform === 'win32' ? 'cmd.exe' : '/bin/sh';

export const runCommand = defineTool({
  name: 'run_command',
  description:
    `Run a shell command (${shellName}) in the project folder or a subfolder, e.g. a build, the tests, or git status. ` +
    'Returns the exit code and duration on the first line, then stdout and stderr interleaved in the order they arrived; long ' +
    `output keeps its first ${outputLimits.headBytes / 1024} KB and last ${outputLimits.tailBytes / 1024} KB. A non-zero exit ` +
    'is reported, not an error. Stdin is closed, so pass flags that avoid prompts (e.g. --yes, --no-pager). At the ' +
    'timeout the command is stopped together with every process it started, and processes it leaves running in the ' +
    'background when it ends are stopped too, so do not start servers or watchers with it.',
  parameters: z.object({
    command: z.string().min(1).describe('The command line, run as is by the shell; pipes, && and redirection work.'),
    cwd: z.string().default('.').describe('Folder to run in, relative to the project folder. Default "." (the project folder).'),
    timeout_s: z
      .number()
      .int()
      .min(1)
      .max(maxTimeoutS)
      .default(defaultTimeoutS)
      .describe(`Seconds before the command is stopped. Default ${defaultTimeoutS}, at most ${maxTimeoutS}.`),
  }),
  mutates: true,
  async run(input, context) {
    const ran = await runCommandOutcome(input, context);
    return { text: ran.text };
  },
});

/** What run_command's arguments are once validated. */
export type RunCommandInput = z.output<typeof runCommand.parameters>;

/**
 * Runs a command as run_command does (in a folder of the project, with the child environment, the
 * timeout, the process-tree stop and the output capture): the text the model reads, and the outcome
 * itself (null when cancelled before it started) for a caller that needs its exit code.
 */
export async function runCommandOutcome(
  { command, cwd, timeout_s }: RunCommandInput,
  { workspace, signal, childEnv, log }: ToolContext,
): Promise<{ text: string; outcome: CommandOutcome | null }> {
  const folder = await workspace.resolve(cwd, 'read');
  const info = await workspace.statIfExists(folder);
  if (!info) throw new ToolError(`The folder ${cwd} does not exist. Give cwd relative to the project folder, or leave it out to run in the project folder.`);
  if (!info.isDirectory()) throw new ToolError(`${cwd} is a file, not a folder. Give a folder as cwd.`);
  const cancelledText = 'cancelled by the user before it started; nothing was run';
  if (signal.aborted) return { text: cancelledText, outcome: null };
  try {
    const outcome = await runShellCommand({ command, cwd: folder.real, env: childEnv, timeoutMs: timeout_s * 1000, signal, log, output: outputLimits });
    return { text: describeOutcome(outcome, timeout_s), outcome };
  } catch (error) {
    if (error instanceof CommandCancelledError) return { text: cancelledText, outcome: null };
    if (error instanceof CommandStartError || error instanceof CommandLostError) throw new ToolError(error.message);
    throw error;
  }
}

function describeOutcome(outcome: CommandOutcome, timeoutS: number): string {
  const lines = [statusLine(outcome, timeoutS)];
  if (outcome.stoppedBy === 'timeout') lines.push(`Raise timeout_s (at most ${maxTimeoutS}) if the command needs longer.`);
  if (outcome.leftoversStopped > 0) {
    const count = outcome.leftoversStopped === 1 ? '1 process' : `${outcome.leftoversStopped} processes`;
    lines.push(`${count} it left running in the background ${outcome.leftoversStopped === 1 ? 'was' : 'were'} stopped when it ended.`);
  }
  lines.push(outcome.outputBytes === 0 ? 'no output' : `output (stdout and stderr interleaved, ${outcome.outputBytes} bytes):\n${outcome.output}`);
  return lines.join('\n');
}

/** The first line, e.g. `exit code 2 after 0.4 s` or `timed out after 5 s; stopped with its child processes (ended by signal SIGKILL after 7.1 s)`. */
function statusLine({ exitCode, signal, durationMs, stoppedBy }: CommandOutcome, timeoutS: number): string {
  const ending = `${exitCode === null ? `ended by signal ${signal}` : `exit code ${exitCode}`} after ${(durationMs / 1000).toFixed(1)} s`;
  if (stoppedBy === 'timeout') return `timed out after ${timeoutS} s; stopped with its child processes (${ending})`;
  if (stoppedBy === 'cancel') return `cancelled by the user; stopped with its child processes (${ending})`;
  return ending;
}
