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

/** What the engine sends the launcher: start a process, or stop reading one's output (its pipes are closed). */
export type LauncherRequest = ({ readonly op: 'start' } & ShellSpec & { readonly id: number }) | { readonly op: 'release'; readonly id: number };

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
 * output. Self-contained (it uses only its arguments), because a launcher process gets it as source text.
 */
export function serveLaunches(port: LauncherPort, childProcess: typeof ChildProcessModule): void {
  const running = new Map<number, ChildProcess>();
  const release = (id: number) => {
    const child = running.get(id);
    running.delete(id);
    child?.stdout?.destroy();
    child?.stderr?.destroy();
  };
  const start = (request: ShellSpec & { readonly id: number }) => {
    const { id } = request;
    const failed = (error: unknown) => {
      const { code, message } = error as { code?: unknown; message?: unknown };
      port.send({ id, event: 'error', code: typeof code === 'string' ? code : null, message: String(message ?? error) });
    };
    let child: ChildProcess;
    try {
      child = childProcess.spawn(request.file, [...request.args], {
        cwd: request.cwd,
        env: request.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: request.detached,
        windowsHide: true,
        windowsVerbatimArguments: request.windowsVerbatimArguments,
      });
    } catch (error) {
      failed(error);
      return;
    }
    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
      running.set(id, child);
      port.send({ id, event: 'spawn', pid: child.pid ?? -1 });
    });
    child.once('error', (error) => {
      if (!spawned) failed(error);
    });
    child.once('exit', (code, signal) => port.send({ id, event: 'exit', code, signal }));
    let open = 2;
    for (const stream of ['stdout', 'stderr'] as const) {
      const pipe = child[stream]!;
      pipe.on('data', (chunk: Uint8Array) => port.send({ id, event: 'output', stream, chunk }));
      pipe.on('error', () => {});
      pipe.once('close', () => {
        open -= 1;
        if (open > 0 || !spawned) return;
        running.delete(id);
        port.send({ id, event: 'closed' });
      });
    }
  };
  port.onRequest((request) => (request.op === 'start' ? start(request) : release(request.id)));
}
