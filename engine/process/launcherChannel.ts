import * as childProcess from 'node:child_process';
import { serveLaunches, type LauncherReply, type LauncherRequest } from './launcherProgram.js';

/** The engine's side of a channel to a command launcher (launcherProgram.ts). */
export interface LauncherChannel {
  post(request: LauncherRequest): void;
  /** Every reply, in the order the launcher sent them. */
  onReply(listener: (reply: LauncherReply) => void): void;
  /**
   * Called once, when the launcher can serve no more, with why (e.g. "it was ended by signal SIGKILL");
   * `ranNothing` when it never ran at all, so it cannot have started anything.
   */
  onGone(listener: (why: string, ranNothing: boolean) => void): void;
  /** Whether the channel keeps this process alive: while a command runs, as a child's pipes would. */
  hold(held: boolean): void;
  /** Ends the launcher (it stopped answering); onGone follows. */
  stop(): void;
}

/** Starts a launcher and opens a channel to it; throws when it cannot. */
export type LauncherStart = () => LauncherChannel;

/**
 * A launcher in a small Node process of its own, the one every command is started from, so the engine's
 * process is forked once rather than once a command: a fork write-protects all of the forking process's
 * memory, and each page it writes afterwards faults back one by one (measured: twelve commands made every
 * following model request of a bare SDK 1.7× slower). It gets no flag and no variable of this process
 * (no secret, no loader), is detached so a terminal's Ctrl-C to the engine's group leaves it to relay the
 * commands' ends, and exits when the engine does, as the channel then closes.
 */
export const nodeLauncher: LauncherStart = () => nodeLauncherAt(process.execPath);

/** A Node launcher run by the Node executable at `execPath` (nodeLauncher: this process's own). */
export function nodeLauncherAt(execPath: string): LauncherChannel {
  const windows = process.platform === 'win32';
  // The program comes on stdin (`node -`), not in the command line: `ps`, and any command reading its
  // parent's /proc/<pid>/cmdline, see a short `node -`.
  const child = childProcess.spawn(execPath, ['-'], {
    stdio: ['pipe', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
    detached: !windows,
    windowsHide: true,
    env: windows && process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {},
  });
  child.stdin?.on('error', () => {});
  child.stdin?.end(nodeLauncherSource());
  const channel = child as unknown as { channel?: { ref(): void; unref(): void } };
  let gone: ((why: string, ranNothing: boolean) => void) | null = null;
  const goneOnce = (why: string, ranNothing: boolean) => {
    const listener = gone;
    gone = null;
    listener?.(why, ranNothing);
  };
  let ran = false;
  child.once('spawn', () => (ran = true));
  // An error before it ran means it cannot run here; any later one (a send to a child that has died) is
  // followed by its close, which says how it ended.
  child.on('error', (error) => ran || goneOnce(`it could not run: ${error.message}`, true));
  // 'close', not 'exit': every message it sent before it ended has been read by then.
  child.once('close', (code, signal) => goneOnce(signal ? `it was ended by signal ${signal}` : `it exited with code ${code}`, false));
  return {
    post: (request) => {
      if (child.connected) child.send(request, () => {});
    },
    onReply: (listener) => child.on('message', listener),
    onGone: (listener) => (gone = listener),
    stop: () => child.kill('SIGKILL'),
    hold: (held) => {
      if (held) {
        child.ref();
        channel.channel?.ref();
      } else {
        child.unref();
        channel.channel?.unref();
      }
    },
  };
}

/**
 * A launcher in this process: where no launcher process can be had (a host whose executable is not Node
 * and that supplies none), commands are started from here, through the same program and replies.
 */
export const inProcessLauncher: LauncherStart = () => {
  let toEngine: (reply: LauncherReply) => void = () => {};
  let toLauncher: (request: LauncherRequest) => void = () => {};
  serveLaunches({ send: (reply) => toEngine(reply), onRequest: (listener) => (toLauncher = listener) }, childProcess);
  return {
    post: (request) => queueMicrotask(() => toLauncher(request)),
    onReply: (listener) => (toEngine = listener),
    onGone: () => {},
    hold: () => {},
    stop: () => {},
  };
};

/**
 * The launcher process's code as text. tsx compiles with keepNames, which wraps nested functions in an
 * `__name` helper; the stub makes that a no-op.
 */
function nodeLauncherSource(): string {
  return [
    "'use strict';",
    'const __name = (target) => target;',
    `const serveLaunches = ${serveLaunches.toString()};`,
    'process.once("disconnect", () => process.exit(0));',
    "serveLaunches({ send: (reply) => process.connected && process.send(reply), onRequest: (listener) => process.on('message', listener) }, require('node:child_process'));",
  ].join('\n');
}
