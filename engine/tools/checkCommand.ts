import type { CheckOutcome } from '../contract/index.js';
import { maskStrings } from '../secrets/secretMask.js';
import type { ToolLog } from '../store/toolLog.js';
import type { ToolGuard } from './executeToolCall.js';
import { resultForContext } from './resultCap.js';
import { runCommand, runCommandOutcome, type RunCommandInput } from './runCommand.js';
import { ToolError, type ToolContext } from './tool.js';

export interface CheckCommandOptions {
  command: string;
  runId: string;
  /** The phase's tool context; the check runs in the project folder with its child environment and signal. */
  context: ToolContext;
  toolLog: Pick<ToolLog, 'append'>;
  /** The run's approval and checkpoint, as for run_command; the check runs unasked when absent. */
  guard?: ToolGuard;
  /** Where the check comes from, for the approval to say (e.g. "the check of plan item 2, from the plan"). */
  origin: string;
  /** run_command's timeout, or what is left of the item's time when that is less. */
  timeoutS: number;
}

export interface CheckRun {
  outcome: CheckOutcome;
  /** The command as it ran: the user may have edited it at the approval. */
  command: string;
  /** The exit code; null when denied, stopped by a signal or the time limit, or when it could not start. */
  exitCode: number | null;
  /** What the model reads of it: the result (masked), cut to fit with a note naming the tool-log id. */
  contextText: string;
}

/**
 * Runs a check: a command the model wrote into the plan (or the folder's check command), so it goes
 * through the same approval as run_command, and then through the same path (runCommandOutcome). Kept in
 * the tool log as a run_command call, its output masked like every result. It passes only on exit code 0.
 */
export async function runCheckCommand(options: CheckCommandOptions): Promise<CheckRun> {
  const { context, guard } = options;
  const started = performance.now();
  let args: Record<string, unknown> = { command: options.command, timeout_s: Math.max(1, Math.min(options.timeoutS, 600)) };
  let ran: { outcome: CheckOutcome; exitCode: number | null; text: string };
  const gate = guard ? await guard(runCommand, args, context.signal, options.origin) : { proceed: true as const, args };
  if (!gate.proceed) {
    ran = { outcome: 'denied', exitCode: null, text: gate.result };
  } else {
    args = gate.args;
    ran = await ranCheck(runCommand.parameters.parse(args), context);
  }
  const text = context.maskSecrets(ran.text);
  const { id } = await options.toolLog.append({
    runId: options.runId,
    phase: 'implement',
    tool: runCommand.name,
    args: maskStrings(args, context.maskSecrets),
    result: text,
    ok: ran.outcome !== 'denied',
    durationMs: Math.round(performance.now() - started),
    ts: Date.now(),
  });
  const command = typeof args['command'] === 'string' ? args['command'] : options.command;
  return { outcome: ran.outcome, command: context.maskSecrets(command), exitCode: ran.exitCode, contextText: resultForContext(text, id) };
}

async function ranCheck(input: RunCommandInput, context: ToolContext): Promise<{ outcome: CheckOutcome; exitCode: number | null; text: string }> {
  try {
    const { text, outcome } = await runCommandOutcome(input, context);
    const exitCode = outcome?.stoppedBy ? null : (outcome?.exitCode ?? null);
    return { outcome: exitCode === 0 ? 'passed' : 'failed', exitCode, text };
  } catch (error) {
    if (error instanceof ToolError) return { outcome: 'failed', exitCode: null, text: error.message };
    throw error;
  }
}
