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
  /** Stops reading its output: the launcher closes its ends of the pipes. */
  release(): void;
}

/** The process could not start: the error's `code` as the system gave it (e.g. ENOENT), and its message. */
export class LaunchError extends Error {
  override name = 'LaunchError';
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

class Launched implements LaunchedProcess {
  pid = -1;
  private listener: ((stream: 'stdout' | 'stderr', chunk: Buffer) => void) | null = null;
  private early: [stream: 'stdout' | 'stderr', chunk: Buffer][] = [];
  private lostWhy: string | null = null;
  private closeOutput!: () => void;
  private exit!: (exit: [number | null, NodeJS.Signals | null]) => void;
  readonly outputClosed = new Promise<void>((resolve) => (this.closeOutput = resolve));
  readonly exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => (this.exit = resolve));

  constructor(readonly release: () => void) {}

  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): void {
    this.listener = listener;
    for (const [stream, chunk] of this.early) listener(stream, chunk);
    this.early = [];
  }

  lost(): string | null {
    return this.lostWhy;
  }

  /** Takes a reply about this process's output or exit. */
  take(reply: LauncherReply): void {
    if (reply.event === 'output') {
      const chunk = Buffer.isBuffer(reply.chunk) ? reply.chunk : Buffer.from(reply.chunk.buffer, reply.chunk.byteOffset, reply.chunk.byteLength);
      if (this.listener) this.listener(reply.stream, chunk);
      else this.early.push([reply.stream, chunk]);
    } else if (reply.event === 'exit') this.exit([reply.code, reply.signal]);
    else if (reply.event === 'closed') this.closeOutput();
  }

  loseLauncher(why: string): void {
    this.lostWhy = why;
    this.exit([null, null]);
    this.closeOutput();
  }
}

interface Pending {
  readonly spec: ShellSpec;
  readonly started: (process: LaunchedProcess) => void;
  readonly failed: (error: unknown) => void;
  readonly process: Launched;
}

/**
 * The engine's one launcher, started with the first command and kept: every command's process is started
 * by it (see nodeLauncher for why). Should it die, the commands it was running are reported lost, those it
 * had not started yet go to a new one, and the next command starts a new one. A launcher that dies before
 * it ever answered (one that cannot run here) is not tried again: commands then start from this process.
 */
export class CommandLauncher {
  private channel: LauncherChannel | null = null;
  /** The channel has answered at least once. */
  private answered = false;
  private readonly processes = new Map<number, Pending>();
  private nextId = 0;

  constructor(private startChannel: () => LauncherStart) {}

  /** Starts a process; rejects with a LaunchError when it cannot start. */
  launch(spec: ShellSpec): Promise<LaunchedProcess> {
    return new Promise((resolve, reject) => this.post({ spec, started: resolve, failed: reject }));
  }

  private post(request: Omit<Pending, 'process'>): void {
    let channel: LauncherChannel;
    try {
      channel = this.open();
    } catch (error) {
      request.failed(error);
      return;
    }
    const id = this.nextId++;
    const launched = new Launched(() => channel.post({ op: 'release', id }));
    this.processes.set(id, { ...request, process: launched });
    if (this.processes.size === 1) channel.hold(true);
    channel.post({ op: 'start', id, ...request.spec });
    void launched.exited.then(() => launched.outputClosed).then(() => this.forget(id, channel));
  }

  private open(): LauncherChannel {
    if (this.channel) return this.channel;
    let channel: LauncherChannel;
    try {
      channel = this.startChannel()();
    } catch {
      channel = inProcessLauncher();
    }
    this.answered = false;
    channel.onReply((reply) => this.take(reply));
    channel.onGone((why) => this.lose(channel, why));
    this.channel = channel;
    return channel;
  }

  private take(reply: LauncherReply): void {
    this.answered = true;
    const pending = this.processes.get(reply.id);
    if (!pending) return;
    if (reply.event === 'spawn') {
      pending.process.pid = reply.pid;
      pending.started(pending.process);
    } else if (reply.event === 'error') {
      this.forget(reply.id, this.channel);
      pending.failed(new LaunchError(reply.message, reply.code));
    } else pending.process.take(reply);
  }

  private forget(id: number, channel: LauncherChannel | null): void {
    if (!this.processes.delete(id)) return;
    if (this.processes.size === 0) channel?.hold(false);
  }

  private lose(channel: LauncherChannel, why: string): void {
    if (this.channel !== channel) return;
    this.channel = null;
    if (!this.answered) this.startChannel = () => inProcessLauncher;
    const lost = [...this.processes.values()];
    this.processes.clear();
    channel.hold(false);
    for (const pending of lost) {
      if (pending.process.pid === -1) this.post(pending);
      else pending.process.loseLauncher(why);
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

const defaultStart = (): LauncherStart => launcherStart ?? (process.versions.electron ? inProcessLauncher : nodeLauncher);

const launcher = new CommandLauncher(defaultStart);

/** Starts a command's process through this process's launcher (see CommandLauncher). */
export function launchProcess(spec: ShellSpec): Promise<LaunchedProcess> {
  return launcher.launch(spec);
}
