import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { LaunchError, launchProcess, type LaunchedProcess } from './commandLauncher.js';
import { killProcessTree } from './killProcessTree.js';
import { LineLog } from './lineLog.js';
import { OutputCapture, type OutputCaptureLimits } from './outputCapture.js';
import { watchCommand } from './commandWatchdog.js';
import { engineId } from './engineIdentity.js';
import { commandMarkerVariable, processStartTime } from './processTable.js';
import { formatSeconds } from '../contract/units.js';

export interface RunShellCommandOptions {
  readonly command: string;
  /** Absolute path of the folder to run in. */
  readonly cwd: string;
  /** The child's whole environment; nothing is added from this process's own but the command's marker (`commandMarkerVariable`). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Aborting stops the command and its processes, as the timeout does. */
  readonly signal: AbortSignal;
  /** Receives output lines as they arrive, up to a budget. */
  readonly log: (line: string) => void;
  readonly output: OutputCaptureLimits;
  /** How long the processes get after SIGTERM before SIGKILL; killProcessTree's default when left out. */
  readonly graceMs?: number;
  /**
   * How long the output may stay open once the shell has exited — a background process still holding
   * it — before the rest of the process group is stopped and the command counts as finished.
   */
  readonly drainMs?: number;
}

export type StopReason = 'timeout' | 'cancel';

export interface CommandOutcome {
  /** The shell's exit code; null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** From start until the shell exited. */
  readonly durationMs: number;
  /** Why the workbench stopped the command, when it did. */
  readonly stoppedBy: StopReason | null;
  /** stdout and stderr interleaved in arrival order: all of it, or its head and tail around a note. */
  readonly output: string;
  readonly outputBytes: number;
  /** Processes that were still running when the shell exited (background jobs) and were stopped then. */
  readonly leftoversStopped: number;
}

/** The shell could not be started at all, e.g. because the folder does not exist. */
export class CommandStartError extends Error {
  override name = 'CommandStartError';
}

/** The command was cancelled while its shell was being started; a shell that started all the same was stopped. */
export class CommandCancelledError extends Error {
  override name = 'CommandCancelledError';
}

/** The command launcher died while the command ran, so its end is not known; the command was stopped. */
export class CommandLostError extends Error {
  override name = 'CommandLostError';
}

const defaultDrainMs = 500;
const maxLogLines = 5000;
const maxLogLineChars = 2000;

/**
 * Runs `command` through the platform shell (/bin/sh -c, or cmd.exe /d /s /c on Windows) with stdin
 * closed, in a process group of its own so the whole group can be stopped, and with a marker in its
 * environment that every process it starts inherits, so one that double-forked into a session of its own
 * is found too (Linux). Stopped at the timeout or on
 * abort with every process it started; processes left behind when the shell exits are stopped too.
 * Resolves only once those processes are gone (or SIGKILL has been sent), never later than the drain
 * window after the shell exits, even when an escaped descendant keeps the output open.
 * The shell is started by the engine's command launcher (commandLauncher.ts), not forked from this process.
 * Throws CommandStartError when the shell cannot start, and CommandLostError when the launcher dies while
 * the command runs (the command is stopped then).
 */
export async function runShellCommand(options: RunShellCommandOptions): Promise<CommandOutcome> {
  const started = performance.now();
  const marker = `${engineId}.${randomUUID()}`;
  const child = await startShell(options, marker);
  const { pid } = child;
  // Should this engine die before the command ends, its watchdog ends the command (and all it started).
  const watched = watchCommand(pid);
  const capture = new OutputCapture(options.output);
  const lines = new LineLog({ log: options.log, maxLines: maxLogLines, maxLineChars: maxLogLineChars });
  child.onOutput((name, chunk) => {
    capture.add(chunk);
    lines.write(name, chunk);
  });
  // Read once the exit is listened for: a quick command may be gone by the time it is read (then null, no filter).
  const startedAfter = await processStartTime(pid);
  const stop = stopAtTimeoutOrAbort({ pid, marker, startedAfter, ...options });

  const [exitCode, signal] = await child.exited;
  const durationMs = performance.now() - started;
  stop.disarm();
  await stop.done();
  const lost = child.lost();
  if (lost !== null) {
    // As after an exit: the shell may be gone and its pid another process's by now; its group and marker are not.
    await killProcessTree({ pid, marker, startedAfter, graceMs: options.graceMs, rootExited: true });
    watched.ended();
    lines.end();
    const output = capture.totalBytes === 0 ? 'It had written nothing.' : `Its output until then (${capture.totalBytes} bytes):\n${capture.text()}`;
    throw new CommandLostError(`The command launcher stopped while the command ran (${lost}), so its end is not known; it was stopped with every process it started. ${output}`);
  }
  const drainMs = options.drainMs ?? defaultDrainMs;
  await settledWithin(child.outputClosed, drainMs);
  const leftoversStopped = await killProcessTree({ pid, marker, startedAfter, graceMs: options.graceMs, rootExited: true });
  watched.ended();
  await settledWithin(child.outputClosed, drainMs);
  child.release();
  lines.end();
  return { exitCode, signal, durationMs, stoppedBy: stop.reason(), output: capture.text(), outputBytes: capture.totalBytes, leftoversStopped };
}

/**
 * Starts the shell, with the command's marker in its environment; a failure to start becomes a
 * CommandStartError. The start itself is bounded by the command's timeout and its abort (see
 * CommandLauncher.launch); a shell started all the same after either is stopped with all it started.
 */
async function startShell({ command, cwd, env, signal, timeoutMs }: RunShellCommandOptions, marker: string): Promise<LaunchedProcess> {
  const windows = process.platform === 'win32';
  const [file, args] = windows ? ['cmd.exe', ['/d', '/s', '/c', `"${command}"`]] : ['/bin/sh', ['-c', command]];
  const spec = { file, args, cwd, env: { ...env, [commandMarkerVariable]: marker }, detached: !windows, windowsVerbatimArguments: windows };
  // A start made after it was given up, or perhaps made by a launcher that died: found by its marker too.
  const stopLate = (late: LaunchedProcess | null) =>
    void killProcessTree({ pid: late?.pid ?? null, marker, graceMs: late ? undefined : 0 }).then(
      () => late?.release(),
      () => late?.release(),
    );
  try {
    return await launchProcess(spec, { startLimitMs: timeoutMs, signal, onLateStart: stopLate });
  } catch (error) {
    if (!(error instanceof LaunchError)) throw error;
    if (error.code === 'ECANCELED') throw new CommandCancelledError('The command was cancelled as it was starting.');
    if (error.code === 'ETIMEDOUT') throw new CommandStartError(`Could not start the command: the command launcher did not start it within its timeout (${formatSeconds(timeoutMs)}).`);
    // The launcher went without saying: stop whatever of the command runs all the same.
    if (error.mayHaveStarted) await killProcessTree({ pid: null, marker, graceMs: 0 });
    const folder = await stat(cwd).catch(() => null);
    if (!folder) throw new CommandStartError(`Could not start the command: the folder ${cwd} does not exist.`);
    if (!folder.isDirectory()) throw new CommandStartError(`Could not start the command: ${cwd} is not a folder.`);
    throw new CommandStartError(`Could not start the command: ${error.message}.`);
  }
}

interface Stop {
  /** Why the tree was stopped, or null when it was not. */
  reason(): StopReason | null;
  /** No stop starts after this; the shell has exited. */
  disarm(): void;
  /** Settles when a stop that began has finished (at once when none did). */
  done(): Promise<unknown>;
}

function stopAtTimeoutOrAbort({ pid, marker, startedAfter, timeoutMs, signal, graceMs }: RunShellCommandOptions & { pid: number; marker: string; startedAfter: string | null }): Stop {
  let reason: StopReason | null = null;
  let stopping: Promise<unknown> = Promise.resolve();
  const stop = (why: StopReason) => {
    if (reason !== null) return;
    reason = why;
    stopping = killProcessTree({ pid, marker, startedAfter, graceMs });
    stopping.catch(() => {});
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('cancel');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  return {
    reason: () => reason,
    disarm: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
    done: () => stopping,
  };
}

async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  const timer = new AbortController();
  try {
    await Promise.race([promise, delay(ms, undefined, { signal: timer.signal })]);
  } finally {
    timer.abort();
  }
}
