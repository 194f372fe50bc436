import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import spawn from 'cross-spawn';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { watchCommand } from '../process/commandWatchdog.js';
import { engineId } from '../process/engineIdentity.js';
import { killProcessTree } from '../process/killProcessTree.js';
import { commandMarkerVariable, processStartTime } from '../process/processTable.js';
import type { StderrTail } from './stderrTail.js';

export interface ProcessStdioOptions {
  command: string;
  args: readonly string[];
  /** Absolute path of the folder the server runs in. */
  cwd: string;
  /** The server's whole environment; only the command marker is added. */
  env: Readonly<Record<string, string>>;
  stderr: StderrTail;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One message line may be this long; a server that sends more without a line break is broken. */
const maxMessageBytes = 64 * 1024 * 1024;
/** How long a server gets to exit on its own once its stdin is closed (the MCP shutdown), before it is stopped. */
const shutdownGraceMs = 500;

/**
 * An MCP stdio transport whose server runs like a command of run_command: in a process group of its own,
 * with the command marker in its environment and the engine's watchdog told about it, so closing it, a
 * cancel, or the engine dying ends the server and everything it started (`npx` and the node it runs,
 * a server's own children). Messages are framed by the SDK's own reader and writer.
 */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | null = null;
  private readonly marker = `${engineId}.${randomUUID()}`;
  private readonly reader = new ReadBuffer({ maxBufferSize: maxMessageBytes });
  private startedAfter: string | null = null;
  private watched: { ended(): void } | null = null;
  private exitInfo: ProcessExit | null = null;
  private stopping: Promise<void> | null = null;
  private closed = false;
  private resolveExit: () => void = () => {};
  private readonly exited = new Promise<void>((resolve) => (this.resolveExit = resolve));

  constructor(private readonly options: ProcessStdioOptions) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How the server's process ended, once it has. */
  get exit(): ProcessExit | null {
    return this.exitInfo;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('This MCP server transport was already started.');
    const { command, args, cwd, env, stderr } = this.options;
    const windows = process.platform === 'win32';
    const child = spawn(command, [...args], {
      cwd,
      env: { ...env, [commandMarkerVariable]: this.marker },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !windows,
      windowsHide: true,
    });
    this.child = child;
    const failure = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', resolve);
    });
    if (failure !== null || child.pid === undefined) throw new Error(await startFailure(command, cwd, failure));
    this.watched = watchCommand(child.pid);
    child.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
    child.once('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      this.resolveExit();
      // What it left running (its own children) goes with it; then the connection closes.
      void this.stop(0);
    });
    this.startedAfter = await processStartTime(child.pid);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.stopping) return Promise.reject(new Error('The MCP server is not running.'));
    return new Promise((resolve, reject) => {
      const written = stdin.write(serializeMessage(message), (error) => (error ? reject(error) : undefined));
      if (written) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** The MCP shutdown: stdin closed, a moment to exit, then the whole tree stopped (SIGTERM, then SIGKILL). */
  close(): Promise<void> {
    return this.stop(shutdownGraceMs);
  }

  /** Stops the server and everything it started now, without waiting for it to exit on its own. */
  kill(): Promise<void> {
    return this.stop(0);
  }

  private read(chunk: Buffer): void {
    try {
      this.reader.append(chunk);
      for (let message = this.reader.readMessage(); message !== null; message = this.reader.readMessage()) this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(new Error(`The server wrote something on stdout that is not an MCP message: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  private stop(graceMs: number): Promise<void> {
    this.stopping ??= this.stopTree(graceMs);
    return this.stopping;
  }

  private async stopTree(graceMs: number): Promise<void> {
    const child = this.child;
    if (!child?.pid) return this.finish();
    child.stdin?.end();
    if (graceMs > 0 && this.exitInfo === null) await Promise.race([this.exited, delay(graceMs)]);
    await killProcessTree({ pid: child.pid, marker: this.marker, startedAfter: this.startedAfter, graceMs: 1000, rootExited: this.exitInfo !== null }).catch(() => 0);
    await Promise.race([this.exited, delay(1000)]);
    this.watched?.ended();
    child.stdout?.destroy();
    child.stderr?.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.reader.clear();
    this.onclose?.();
  }
}

/** Why a server's program could not start, in a sentence that says what to check. */
async function startFailure(command: string, cwd: string, failure: NodeJS.ErrnoException | null): Promise<string> {
  const folder = await stat(cwd).catch(() => null);
  if (!folder?.isDirectory()) return `Could not start "${command}": its working folder ${cwd} does not exist.`;
  if (failure?.code === 'ENOENT') return `Could not start "${command}": no such program on the server's PATH (check the command, or give its full path).`;
  if (failure?.code === 'EACCES') return `Could not start "${command}": it is not executable (permission denied).`;
  return `Could not start "${command}": ${failure?.message ?? 'the program did not start'}.`;
}
