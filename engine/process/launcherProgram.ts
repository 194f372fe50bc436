import type * as ChildProcessModule from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** A command's process, as the engine asks the launcher to start it. */
export interface ShellSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The process's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** In a process group (POSIX) of its own. */
  readonly detached: boolean;
  readonly windowsVerbatimArguments: boolean;
}

/**
 * What the engine sends the launcher: start a process (not after `notAfter`, Date.now() time); cancel a
 * start it has not made yet; say how many output bytes of a process it has taken (`ack`); stop reading a
 * process's output (`release`: its pipes are closed).
 */
export type LauncherRequest =
  | ({ readonly op: 'start'; readonly id: number; readonly notAfter: number } & ShellSpec)
  | { readonly op: 'cancel' | 'release'; readonly id: number }
  | { readonly op: 'ack'; readonly id: number; readonly bytes: number };

/** What the launcher sends back about process `id`, in the order it happened. */
export type LauncherReply =
  | { readonly id: number; readonly event: 'spawn'; readonly pid: number }
  | { readonly id: number; readonly event: 'error'; readonly code: string | null; readonly message: string }
  | { readonly id: number; readonly event: 'output'; readonly stream: 'stdout' | 'stderr'; readonly chunk: Uint8Array }
  | { readonly id: number; readonly event: 'exit'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly id: number; readonly event: 'closed' };

/** The launcher's side of its channel to the engine. */
export interface LauncherPort {
  send(reply: LauncherReply): void;
  onRequest(listener: (request: LauncherRequest) => void): void;
}

/**
 * The launcher's whole program: starts the processes the engine asks for, with stdin closed and stdout
 * and stderr piped, and relays each one's start (or failure to start), output, exit and the close of its
 * output. A start waits one turn of the event loop, so a cancel sent right behind it is seen first, and
 * one that comes after its `notAfter` is refused. A process's pipes are paused while `windowBytes` of its
 * output are sent and not yet acknowledged, so a flood waits in the pipe (slowing its writer, as the
 * engine's own reads of a pipe would), not in memory. Self-contained (it uses only its arguments), because
 * a Node launcher gets it as source text.
 */
export function serveLaunches(port: LauncherPort, childProcess: typeof ChildProcessModule, windowBytes = 1 << 20): void {
  const running = new Map<number, { child: ChildProcess; unacked: number; paused: boolean }>();
  const waiting = new Set<number>();
  const failed = (id: number, error: unknown) => {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    port.send({ id, event: 'error', code: typeof code === 'string' ? code : null, message: String(message ?? error) });
  };
  const pipesOf = (child: ChildProcess) => [child.stdout, child.stderr] as const;
  const flow = (id: number) => {
    const entry = running.get(id);
    if (!entry) return;
    const pause = entry.unacked >= windowBytes;
    if (pause === entry.paused) return;
    entry.paused = pause;
    for (const pipe of pipesOf(entry.child)) {
      if (pause) pipe?.pause();
      else pipe?.resume();
    }
  };
  const spawnNow = (request: ShellSpec & { readonly id: number }) => {
    const { id } = request;
    const child = childProcess.spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: request.detached,
      windowsHide: true,
      windowsVerbatimArguments: request.windowsVerbatimArguments,
    });
    let spawned = false;
    child.once('error', (error) => {
      if (!spawned) failed(id, error);
    });
    const [stdout, stderr] = pipesOf(child);
    // No pipes (out of file descriptors, say): the failure to spawn that comes with it is the answer.
    if (!stdout || !stderr) {
      child.once('spawn', () => {
        child.kill('SIGKILL');
        failed(id, new Error('its output could not be piped'));
      });
      return;
    }
    child.once('spawn', () => {
      spawned = true;
      running.set(id, { child, unacked: 0, paused: false });
      port.send({ id, event: 'spawn', pid: child.pid ?? -1 });
    });
    child.once('exit', (code, signal) => port.send({ id, event: 'exit', code, signal }));
    let open = 2;
    for (const [stream, pipe] of [['stdout', stdout], ['stderr', stderr]] as const) {
      pipe.on('data', (chunk: Uint8Array) => {
        port.send({ id, event: 'output', stream, chunk });
        const entry = running.get(id);
        if (entry) entry.unacked += chunk.byteLength;
        flow(id);
      });
      pipe.on('error', () => {});
      pipe.once('close', () => {
        open -= 1;
        if (open > 0 || !spawned) return;
        running.delete(id);
        port.send({ id, event: 'closed' });
      });
    }
  };
  const start = (request: ShellSpec & { readonly id: number; readonly notAfter: number }) => {
    waiting.add(request.id);
    setImmediate(() => {
      if (!waiting.delete(request.id)) return failed(request.id, Object.assign(new Error('it was cancelled before it started'), { code: 'ECANCELED' }));
      if (Date.now() > request.notAfter) return failed(request.id, Object.assign(new Error('the request to start it came too late'), { code: 'ETIMEDOUT' }));
      try {
        spawnNow(request);
      } catch (error) {
        failed(request.id, error);
      }
    });
  };
  const release = (id: number) => {
    const entry = running.get(id);
    running.delete(id);
    for (const pipe of entry ? pipesOf(entry.child) : []) pipe?.destroy();
  };
  port.onRequest((request) => {
    if (request.op === 'start') start(request);
    else if (request.op === 'cancel') waiting.delete(request.id);
    else if (request.op === 'release') release(request.id);
    else if (request.op === 'ack') {
      const entry = running.get(request.id);
      if (entry) entry.unacked = Math.max(0, entry.unacked - request.bytes);
      flow(request.id);
    }
  });
}
