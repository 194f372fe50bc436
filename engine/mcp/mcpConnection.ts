import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, ListRootsRequestSchema, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { waitedFor } from '../approvals/toolGuard.js';
import { ToolError } from '../tools/tool.js';
import type { McpLaunch, McpServerSpec } from './mcpConfigStore.js';
import { resultText } from './mcpResultText.js';
import { listedTools, type ListedTool } from './listedTools.js';
import { exitText, transportFor } from './mcpTransport.js';
import { ProcessStdioTransport } from './processStdioTransport.js';
import { StderrTail } from './stderrTail.js';

/** How the workbench introduces itself to servers. */
const clientInfo = { name: 'rpi-workbench', title: 'RPI Workbench', version: '0.1.0' };
/** How long a server gets to start and answer `initialize` (an `npx` server may first install itself). */
export const defaultStartTimeoutMs = 60_000;
/** A call that reports progress keeps going past its timeout, but never past this many timeouts in all. */
const progressTimeoutFactor = 10;

export type ConnectionState = 'starting' | 'ready' | 'failed' | 'stopped' | 'closed';

export interface McpConnectionOptions {
  spec: McpServerSpec & { launch: McpLaunch };
  /** The opened folder: a stdio server's working folder unless its `cwd` says otherwise, and the one root offered. */
  folder: string;
  /** The environment a stdio server starts from (credentials already removed); its own `env` goes on top. */
  baseEnv: () => Promise<Readonly<Record<string, string>>>;
  /** Something shown about the server changed: its state, its tools, its error. */
  onChange: () => void;
  /** The server stopped on its own while it was in use: a sentence for the run's warnings. */
  onCrash: (message: string) => void;
  startTimeoutMs?: number;
}

/**
 * One MCP server of a workbench, through the official SDK's Client: started (stdio: as a process tree of
 * its own; HTTP: a Streamable HTTP session), its tools listed and re-listed when it says they changed,
 * calls run with a timeout. A server that stops on its own is reported and started again on its next
 * call; a call that is cancelled or times out stops a stdio server (it may still be working on it) and
 * the next call starts it afresh.
 */
export class McpConnection {
  private stateNow: ConnectionState = 'starting';
  private errorNow: string | undefined;
  private toolsNow: ListedTool[] = [];
  private serverInfoNow: string | undefined;
  private client: Client | null = null;
  private transport: Transport | null = null;
  private stderr = new StderrTail();
  private starting: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  /** Set while the workbench itself stops the server, so its closing is not taken for a crash. */
  private stoppingOnPurpose = false;

  constructor(private readonly options: McpConnectionOptions) {}

  get name(): string {
    return this.options.spec.name;
  }

  get state(): ConnectionState {
    return this.stateNow;
  }

  get error(): string | undefined {
    return this.errorNow;
  }

  get tools(): readonly ListedTool[] {
    return this.toolsNow;
  }

  get serverInfo(): string | undefined {
    return this.serverInfoNow;
  }

  /** The last lines the server wrote on stderr. */
  get stderrTail(): string {
    return this.stderr.text();
  }

  /** The process id of a running stdio server. */
  get pid(): number | null {
    return this.transport instanceof ProcessStdioTransport ? this.transport.pid : null;
  }

  /** Starts the server (again, after a failure or a stop); resolves once it is ready or has failed. */
  start(): Promise<void> {
    if (this.stateNow === 'closed') return Promise.resolve();
    this.starting ??= this.connect().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** Its tools once it has started and any re-listing it asked for is done. */
  async currentTools(): Promise<readonly ListedTool[]> {
    await this.starting;
    await this.refreshing;
    return this.toolsNow;
  }

  /** Calls a tool and returns its result as text; a failure the model can read is a ToolError. */
  async call(tool: string, args: Record<string, unknown>, { signal, log }: { signal: AbortSignal; log: (line: string) => void }): Promise<string> {
    const client = await this.readyClient();
    const timeout = this.options.spec.timeoutMs;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: timeout * progressTimeoutFactor,
        onprogress: ({ progress, total, message }) => log(`${tool}: ${message ?? 'progress'} ${progress}${total === undefined ? '' : `/${total}`}`),
      });
      const text = resultText(result as Parameters<typeof resultText>[0]);
      if (result.isError === true) throw new ToolError(`${this.label(tool)} reported an error: ${text}`);
      return text;
    } catch (error) {
      throw await this.callFailure(tool, error, signal);
    }
  }

  /** Stops the server for good (the folder closes, or its settings changed). */
  async close(): Promise<void> {
    this.stateNow = 'closed';
    // A server still starting is stopped too: its handshake then fails at once instead of waiting for its timeout.
    await this.stop();
    await this.starting?.catch(() => undefined);
  }

  /** What went wrong with a call, as the model reads it; stops a stdio server that may still be busy with it. */
  private async callFailure(tool: string, error: unknown, signal: AbortSignal): Promise<unknown> {
    if (error instanceof ToolError) return error;
    if (signal.aborted) {
      await this.abandon('the call was cancelled');
      return error;
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const took = waitedFor(Math.round(this.options.spec.timeoutMs / 1000));
      const restarted = this.pid !== null;
      await this.abandon(`a call to ${tool} took longer than ${took}`);
      return new ToolError(
        `${this.label(tool)} did not answer within ${took}, so it was cancelled${restarted ? ' and the server stopped; it starts again on the next call' : ''}. ` +
          'Try a smaller request, or go on without it.',
      );
    }
    if (this.stateNow === 'stopped' || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      return new ToolError(`${this.label(tool)} failed: ${this.errorNow ?? `the server "${this.name}" closed the connection`} It starts again on the next call.`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ToolError(`${this.label(tool)} failed: ${message}`);
  }

  private label(tool: string): string {
    return `The MCP tool "${tool}" of the server "${this.name}"`;
  }

  /** The client of a ready server, starting it (again) when it is not; a ToolError when it cannot start. */
  private async readyClient(): Promise<Client> {
    if (this.stateNow === 'closed') throw new ToolError(`The MCP server "${this.name}" was shut down with the folder.`);
    if (this.stateNow !== 'ready' || !this.client) await this.start();
    if (this.stateNow !== 'ready' || !this.client) {
      throw new ToolError(`The MCP server "${this.name}" is not running and could not be started: ${this.errorNow ?? 'it did not start'}`);
    }
    return this.client;
  }

  private async connect(): Promise<void> {
    this.stateNow = 'starting';
    this.errorNow = undefined;
    this.stderr = new StderrTail();
    this.options.onChange();
    // The SDK's client is loaded when the first server starts: it takes longer to load than most commands run.
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client(clientInfo, { capabilities: { roots: { listChanged: false } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(this.options.folder).href, name: path.basename(this.options.folder) }] }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => this.toolsChanged());
    try {
      const transport = await transportFor(this.options, this.stderr);
      this.transport = transport;
      this.stoppingOnPurpose = false;
      client.onclose = () => this.closedUnderUs(transport);
      await client.connect(transport, { timeout: this.options.startTimeoutMs ?? defaultStartTimeoutMs });
      this.client = client;
      const version = client.getServerVersion();
      this.serverInfoNow = version ? `${version.title ?? version.name} ${version.version}` : undefined;
      this.toolsNow = await listedTools(client);
      if ((this.stateNow as ConnectionState) === 'closed') return await this.stop();
      this.stateNow = 'ready';
    } catch (error) {
      const failure = this.startFailure(error);
      await this.stop();
      if ((this.stateNow as ConnectionState) === 'closed') return;
      this.stateNow = 'failed';
      this.errorNow = failure;
    }
    this.options.onChange();
  }

  /** `notifications/tools/list_changed`: the list is fetched again; the next turn's tools wait for it. */
  private toolsChanged(): void {
    const client = this.client;
    if (!client || this.stateNow !== 'ready') return;
    this.refreshing = (this.refreshing ?? Promise.resolve())
      .then(async () => {
        this.toolsNow = await listedTools(client);
        this.options.onChange();
      })
      .catch(() => undefined);
  }

  /** The transport closed: on purpose, or the server stopped (crashed, or was killed from outside). */
  private closedUnderUs(transport: Transport): void {
    if (this.stoppingOnPurpose || transport !== this.transport) return;
    // While starting, connect() fails with the closed connection and says why.
    if (this.stateNow === 'closed' || this.stateNow === 'starting') return;
    this.client = null;
    this.transport = null;
    const wasReady = this.stateNow === 'ready';
    this.stateNow = 'stopped';
    this.errorNow = `The server "${this.name}" stopped${exitText(transport)}.${this.tailSentence()}`;
    this.options.onChange();
    if (wasReady) this.options.onCrash(`The MCP server "${this.name}" stopped${exitText(transport)}; it starts again on its next call.${this.tailSentence()}`);
  }

  /** A call was given up on: a stdio server may still be busy with it, so it is stopped and started afresh on the next call. */
  private async abandon(reason: string): Promise<void> {
    if (!(this.transport instanceof ProcessStdioTransport) || this.stateNow !== 'ready') return;
    await this.stop();
    if ((this.stateNow as ConnectionState) === 'closed') return;
    this.stateNow = 'stopped';
    this.errorNow = `The server "${this.name}" was stopped because ${reason}; it starts again on its next call.`;
    this.options.onChange();
  }

  private async stop(): Promise<void> {
    const { client, transport } = this;
    this.client = null;
    this.transport = null;
    this.stoppingOnPurpose = true;
    if (client) await client.close().catch(() => undefined);
    else await transport?.close().catch(() => undefined);
    if (transport instanceof ProcessStdioTransport) await transport.kill();
  }

  private startFailure(error: unknown): string {
    const code = error instanceof McpError ? error.code : null;
    const exited = this.transport instanceof ProcessStdioTransport && this.transport.exit !== null;
    const message = exited
      ? 'it exited before the MCP handshake was done'
      : code === ErrorCode.RequestTimeout
        ? `it did not answer the MCP handshake within ${waitedFor(Math.round((this.options.startTimeoutMs ?? defaultStartTimeoutMs) / 1000))}`
        : code === ErrorCode.ConnectionClosed
          ? 'it closed the connection before the MCP handshake was done'
          : error instanceof Error
            ? error.message
            : String(error);
    const how = this.transport ? exitText(this.transport) : '';
    return `The server "${this.name}" could not start${how}: ${message.replace(/\.$/, '')}.${this.tailSentence()}`;
  }

  private tailSentence(): string {
    const last = this.stderr.lastLine().trim();
    return last ? ` Its last words on stderr: ${last}` : '';
  }
}
