import { inProcessLauncher, nodeLauncher, type LauncherChannel, type LauncherStart } from './launcherChannel.js';
import type { LauncherReply, ShellSpec } from './launcherProgram.js';

/** A process started through the launcher. */
export interface LaunchedProcess {
  readonly pid: number;
  /** Each chunk of output, in order; what arrived before the listener was set is given to it first. */
  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): void;
  /** Settles when both stdout and stderr have closed (or the launcher is gone). */
  readonly outputClosed: Promise<void>;
  /** Settles when the process has exited and been reaped, or the launcher is gone (see lost). */
  readonly exited: Promise<[code: number | null, signal: NodeJS.Signals | null]>;
  /** Why the launcher was lost while the process ran, so its exit and output are not known; null while it serves. */
  lost(): string | null;
  /** Stops reading its output: the launcher closes its ends of the pipes, and what is still on the way is dropped. */
  release(): void;
}

/** How a start is asked for. */
export interface LaunchOptions {
  /** The start is given up when it is not made within this many ms (LaunchError ETIMEDOUT). */
  startLimitMs: number;
  /** Aborting before the start is made gives it up (LaunchError ECANCELED). */
  signal?: AbortSignal;
  /**
   * Given a process the launcher started all the same after the start was given up (it had not yet seen
   * the cancel, or its deadline), or null when the launcher died after it without saying whether it made
   * the start: the caller, who knows how to find all it started, stops it. Must not throw.
   */
  onLateStart: (late: LaunchedProcess | null) => void;
}

/**
 * The process did not start: the error's `code` as the system gave it (e.g. ENOENT), ECANCELED or
 * ETIMEDOUT for a start given up (see LaunchOptions), and its message. `mayHaveStarted`: the launcher
 * stopped with the start asked and not answered, so it cannot be told.
 */
export class LaunchError extends Error {
  override name = 'LaunchError';
  constructor(
    message: string,
    readonly code: string | null,
    readonly mayHaveStarted = false,
  ) {
    super(message);
  }
}

/** Output bytes acknowledged at a time: far below the launcher's window (serveLaunches, 1 MiB), so a command the engine keeps up with is never paused. */
const ackEveryBytes = 64 * 1024;
/** How long a launcher may leave a start unanswered before it counts as stuck, and is stopped and replaced. */
const answerLimitMs = 10_000;

type Output = [stream: 'stdout' | 'stderr', chunk: Buffer];

class Launched implements LaunchedProcess {
  pid = -1;
  private listener: ((...output: Output) => void) | null = null;
  private early: Output[] = [];
  private lostWhy: string | null = null;
  private released = false;
  private unacked = 0;
  private closeOutput!: () => void;
  private exit!: (exit: [number | null, NodeJS.Signals | null]) => void;
  readonly outputClosed = new Promise<void>((resolve) => (this.closeOutput = resolve));
  readonly exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => (this.exit = resolve));

  constructor(private readonly tell: (op: 'release' | 'ack', bytes?: number) => void) {}

  onOutput(listener: (...output: Output) => void): void {
    this.listener = listener;
    for (const output of this.early) listener(...output);
    this.early = [];
  }

  lost(): string | null {
    return this.lostWhy;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.tell('release');
  }

  /** Takes a reply about this process's output or exit. */
  take(reply: LauncherReply): void {
    if (reply.event === 'output') this.output(reply.stream, reply.chunk);
    else if (reply.event === 'exit') this.exit([reply.code, reply.signal]);
    else if (reply.event === 'closed') this.closeOutput();
  }

  loseLauncher(why: string): void {
    this.lostWhy = why;
    this.exit([null, null]);
    this.closeOutput();
  }

  private output(stream: 'stdout' | 'stderr', bytes: Uint8Array): void {
    if (this.released) return;
    const chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.listener) this.listener(stream, chunk);
    else this.early.push([stream, chunk]);
    this.unacked += chunk.byteLength;
    if (this.unacked < ackEveryBytes) return;
    this.tell('ack', this.unacked);
    this.unacked = 0;
  }
}

interface Pending {
  readonly spec: ShellSpec;
  readonly notAfter: number;
  readonly started: (process: LaunchedProcess) => void;
  readonly failed: (error: LaunchError) => void;
  readonly late: (late: LaunchedProcess | null) => void;
  /** What it stands for, told back through the launcher it was last asked of. */
  readonly process: Launched;
  abandoned: boolean;
  /** Where its start was asked last. */
  at?: { open: OpenChannel; id: number };
  answerTimer?: NodeJS.Timeout;
}

interface OpenChannel {
  readonly channel: LauncherChannel;
  readonly processes: Map<number, Pending>;
  /** It left a start unanswered too long and was stopped. */
  stuck: boolean;
}

/**
 * The engine's one launcher, started with the first command and kept: every command's process is started
 * by it (see nodeLauncher for why). Should it die, the commands it was running are reported lost, and the
 * starts it had not answered fail (it may or may not have made them); the next command starts a new one.
 * A launcher that could not run at all has made no start: its commands go to a new one, and, as it will
 * not run next time either, commands start from this process from then on. One that leaves a start
 * unanswered for answerLimitMs is stuck: it is stopped, as if it had died.
 */
export class CommandLauncher {
  private current: OpenChannel | null = null;
  private nextId = 0;

  constructor(private startChannel: () => LauncherStart) {}

  /**
   * Asks for a process; resolves once it runs. Rejects with a LaunchError when it did not start, or was
   * given up (the abort, or the start limit) before the launcher made it: a launcher that stopped answering
   * (suspended, say) holds no command up. A start given up is cancelled with the launcher, which refuses it
   * past its deadline too; one it made all the same goes to `onLateStart`.
   */
  launch(spec: ShellSpec, { startLimitMs, signal, onLateStart }: LaunchOptions): Promise<LaunchedProcess> {
    if (signal?.aborted) return Promise.reject(new LaunchError('the start was cancelled', 'ECANCELED'));
    let pending!: Pending;
    const started = new Promise<LaunchedProcess>((resolve, reject) => {
      const tell = (op: 'release' | 'ack', bytes = 0) => {
        const at = pending.at;
        at?.open.channel.post(op === 'ack' ? { op, id: at.id, bytes } : { op, id: at.id });
      };
      pending = { spec, notAfter: Date.now() + startLimitMs, started: resolve, failed: reject, late: onLateStart, process: new Launched(tell), abandoned: false };
    });
    const giveUp = (error: LaunchError) => {
      if (pending.abandoned || pending.process.pid !== -1) return;
      pending.abandoned = true;
      pending.failed(error);
      if (!pending.at) return;
      pending.at.open.channel.post({ op: 'cancel', id: pending.at.id });
      this.holdIfWaited(pending.at.open);
    };
    const timer = setTimeout(() => giveUp(new LaunchError(`the command launcher did not start it within ${startLimitMs} ms`, 'ETIMEDOUT')), startLimitMs);
    const onAbort = () => giveUp(new LaunchError('the start was cancelled', 'ECANCELED'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    started.then(settled, settled);
    this.post(pending);
    return started;
  }

  private post(pending: Pending): void {
    const open = this.open();
    const { channel, processes } = open;
    const id = this.nextId++;
    pending.at = { open, id };
    processes.set(id, pending);
    this.holdIfWaited(open);
    pending.answerTimer = setTimeout(() => {
      open.stuck = true;
      channel.stop();
    }, answerLimitMs).unref();
    channel.post({ op: 'start', id, notAfter: pending.notAfter, ...pending.spec });
    const launched = pending.process;
    void launched.exited.then(() => launched.outputClosed).then(() => this.forget(open, id));
  }

  private open(): OpenChannel {
    if (this.current) return this.current;
    let channel: LauncherChannel;
    try {
      channel = this.startChannel()();
    } catch {
      channel = inProcessLauncher();
    }
    const open: OpenChannel = { channel, processes: new Map(), stuck: false };
    channel.onReply((reply) => this.take(open, reply));
    channel.onGone((why, ranNothing) => this.lose(open, why, ranNothing));
    this.current = open;
    return open;
  }

  private take(open: OpenChannel, reply: LauncherReply): void {
    const pending = open.processes.get(reply.id);
    if (!pending) return;
    if (reply.event === 'spawn' || reply.event === 'error') clearTimeout(pending.answerTimer);
    if (reply.event === 'spawn') {
      pending.process.pid = reply.pid;
      if (pending.abandoned) pending.late(pending.process);
      else pending.started(pending.process);
    } else if (reply.event === 'error') {
      this.forget(open, reply.id);
      pending.failed(new LaunchError(reply.message, reply.code));
    } else pending.process.take(reply);
  }

  private forget(open: OpenChannel, id: number): void {
    if (open.processes.delete(id)) this.holdIfWaited(open);
  }

  /** The channel keeps this process alive while a start or a running command is waited for. */
  private holdIfWaited({ channel, processes }: OpenChannel): void {
    channel.hold([...processes.values()].some((pending) => !pending.abandoned));
  }

  private lose(open: OpenChannel, gone: string, ranNothing: boolean): void {
    if (this.current === open) this.current = null;
    const why = open.stuck ? `it left a start unanswered for ${answerLimitMs / 1000} s and was stopped` : gone;
    if (ranNothing) this.startChannel = () => inProcessLauncher;
    const lost = [...open.processes.values()];
    open.processes.clear();
    open.channel.hold(false);
    for (const pending of lost) {
      clearTimeout(pending.answerTimer);
      if (pending.process.pid !== -1) pending.process.loseLauncher(why);
      else if (ranNothing && !pending.abandoned) this.post(pending);
      else if (pending.abandoned) {
        if (!ranNothing) pending.late(null);
      } else pending.failed(new LaunchError(`the command launcher stopped before it said whether it started the command (${why})`, null, true));
    }
  }
}

/** How the launcher is started: a host whose executable is not Node supplies its own (setCommandLauncher). */
let launcherStart: LauncherStart | null = null;

/**
 * Sets how this process's command launcher is started. Electron's main process, whose executable cannot
 * run as Node, gives one that starts a utility process running `serveLaunches`. Without one, a Node
 * process starts a Node launcher, and any other host starts commands from its own process.
 */
export function setCommandLauncher(start: LauncherStart): void {
  launcherStart = start;
}

const launcher = new CommandLauncher(() => launcherStart ?? (process.versions.electron ? inProcessLauncher : nodeLauncher));

/** Asks this process's launcher (see CommandLauncher.launch) to start a command's process. */
export function launchProcess(spec: ShellSpec, options: LaunchOptions): Promise<LaunchedProcess> {
  return launcher.launch(spec, options);
}
