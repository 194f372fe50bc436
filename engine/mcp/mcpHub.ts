import type { McpServerStatus, McpToolView, Phase, UnsequencedEvent } from '../contract/index.js';
import { childEnvironment } from '../secrets/childEnvironment.js';
import { knownSecrets } from '../secrets/secretMask.js';
import type { Tool } from '../tools/tool.js';
import type { ToolSource } from '../tools/toolSource.js';
import type { McpAllowanceStore } from './allowedMcpTools.js';
import type { McpLaunch, McpServerSpec } from './mcpConfigStore.js';
import type { ListedTool } from './listedTools.js';
import { McpConnection } from './mcpConnection.js';
import { McpTool } from './mcpTool.js';
import { modelToolName } from './mcpToolNames.js';
import type { KnownSecret } from '../secrets/secretMask.js';

export interface McpHubOptions {
  /** The opened folder (a real path). */
  folder: string;
  /** The user's servers, read afresh on start and reload. */
  specs: () => Promise<McpServerSpec[]>;
  allowances: McpAllowanceStore;
  /** The host's environment, credentials included: they are removed before a server inherits it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The API keys of the model servers (every phase's connection): never passed on, nor any copy of them. */
  apiKeys?: () => Promise<string[]>;
  /** Which servers this host runs (the CLI's --mcp / --no-mcp); all when absent. */
  include?: (name: string) => boolean;
  emit: (event: UnsequencedEvent) => void;
  /** How long a server gets to start; tests shorten it. */
  startTimeoutMs?: number;
}

interface Entry {
  spec: McpServerSpec;
  connection: McpConnection | null;
  /** Its tools as offered, rebuilt when its list changes. */
  tools: McpTool[];
  /** The tool list they were built from. */
  builtFrom: readonly ListedTool[] | null;
  /** Tools the user chose to "always allow" (by their server names). */
  allowed: Set<string>;
  /** When what its status shows last changed (engine clock). */
  updatedAt: number;
}

/**
 * The user's MCP servers while a folder is open: started when it opens, stopped when it closes, their
 * tools offered to the phases that may use them (Implement; Research too for the read-only tools of a
 * server the user allowed there), asked for before each model turn so a changed list counts from the
 * next turn. A server that failed to start is tried again at the next run.
 */
export class McpHub implements ToolSource {
  private readonly entries = new Map<string, Entry>();
  private baseEnv: Promise<Record<string, string>> | null = null;
  private closed = false;
  /** Runs of start, reload and close, one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: McpHubOptions) {}

  /** Reads the servers and starts those enabled, without waiting for them to be ready. */
  start(): Promise<void> {
    return this.serially(() => this.apply());
  }

  /** Reads the servers again: new and changed ones (re)start, removed and disabled ones stop. */
  reload(): Promise<void> {
    return this.serially(() => this.apply());
  }

  /** Stops one server and starts it again. */
  restart(name: string): Promise<void> {
    return this.serially(async () => {
      const entry = this.entries.get(name);
      if (!entry?.connection) throw new Error(`The MCP server "${name}" is not running here (it is disabled, or its settings cannot be used).`);
      await entry.connection.close();
      this.connect(entry);
    });
  }

  /** Servers that failed to start (or stopped) get another try; used when a run starts. */
  retryFailed(): void {
    for (const entry of this.entries.values()) if (entry.connection?.state === 'failed') void entry.connection.start();
  }

  /** The secrets of every configured server (its env tokens, its headers): hidden from every result the model reads, not only that server's. */
  secrets(): KnownSecret[] {
    return [...this.entries.values()].flatMap((entry) => entry.spec.secrets);
  }

  statuses(): McpServerStatus[] {
    return [...this.entries.values()].map((entry) => this.statusOf(entry));
  }

  /** The tools `phase` may call now. Waits for the servers it needs that are still starting, and for re-listed tool lists. */
  async toolsFor(phase: Phase, signal?: AbortSignal): Promise<Tool[]> {
    if (phase !== 'research' && phase !== 'implement') return [];
    await untilAborted(this.queue, signal);
    const wanted = [...this.entries.values()].filter((entry) => entry.connection && (phase === 'implement' || entry.spec.researchReadOnly));
    await untilAborted(Promise.all(wanted.map((entry) => entry.connection?.currentTools())), signal);
    this.rebuildTools();
    return wanted.flatMap((entry) => entry.tools.filter((tool) => phase === 'implement' || tool.info.readOnly));
  }

  /** Whether the user chose "always allow" for this tool of its server. */
  isAlwaysAllowed(tool: McpTool): boolean {
    return this.entries.get(tool.info.server)?.allowed.has(tool.info.name) ?? false;
  }

  /** Remembers "always allow" for a tool, bound to its server's definition. */
  async allowAlways(tool: McpTool): Promise<void> {
    await this.setAllowed(tool.info.server, tool.info.name, true);
  }

  /** Sets or takes back "always allow" for one tool of a server (from Settings or an approval). */
  async setAllowed(server: string, tool: string, allowed: boolean): Promise<void> {
    const entry = this.entries.get(server);
    if (!entry) throw new Error(`There is no MCP server named "${server}" here.`);
    if (allowed) await this.options.allowances.add(server, entry.spec.definition, tool);
    else await this.options.allowances.remove(server, tool);
    entry.allowed = new Set(await this.options.allowances.list(server, entry.spec.definition));
    this.announce(entry);
  }

  /** Stops every server; nothing starts afterwards. */
  close(): Promise<void> {
    this.closed = true;
    return this.serially(async () => {
      await Promise.all([...this.entries.values()].map((entry) => entry.connection?.close()));
    });
  }

  /** The connection of a server, for tests that need its process. */
  connection(name: string): McpConnection | null {
    return this.entries.get(name)?.connection ?? null;
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async apply(): Promise<void> {
    if (this.closed) return;
    const include = this.options.include ?? (() => true);
    const specs = (await this.options.specs()).filter((spec) => include(spec.name));
    const names = new Set(specs.map((spec) => spec.name));
    for (const [name, entry] of this.entries) {
      if (names.has(name)) continue;
      this.entries.delete(name);
      await entry.connection?.close();
    }
    for (const spec of specs) {
      const current = this.entries.get(spec.name);
      if (current && sameRun(current.spec, spec)) {
        current.spec = spec;
        current.allowed = new Set(await this.options.allowances.list(spec.name, spec.definition));
        this.announce(current);
        continue;
      }
      await current?.connection?.close();
      const entry: Entry = { spec, connection: null, tools: [], builtFrom: null, allowed: new Set(await this.options.allowances.list(spec.name, spec.definition)), updatedAt: Date.now() };
      this.entries.set(spec.name, entry);
      if (spec.enabled && spec.launch) this.connect(entry);
      else this.announce(entry);
    }
  }

  private connect(entry: Entry): void {
    const { spec } = entry;
    if (!spec.launch || this.closed) return;
    const launch: McpLaunch = spec.launch;
    const connection = new McpConnection({
      spec: { ...spec, launch },
      folder: this.options.folder,
      baseEnv: () => this.environment(),
      onChange: () => this.announce(entry),
      onCrash: (message) => this.options.emit({ type: 'warning', runId: null, message }),
      ...(this.options.startTimeoutMs === undefined ? {} : { startTimeoutMs: this.options.startTimeoutMs }),
    });
    entry.connection = connection;
    entry.tools = [];
    entry.builtFrom = null;
    void connection.start();
  }

  /** What a stdio server inherits: the host's environment without credentials, the API key, or any copy of it. */
  private environment(): Promise<Record<string, string>> {
    this.baseEnv ??= (async () => {
      const apiKeys = (await this.options.apiKeys?.().catch(() => [])) ?? [];
      return childEnvironment(this.options.env, knownSecrets(this.options.env, apiKeys).map((secret) => secret.value));
    })();
    return this.baseEnv;
  }

  /** Builds the Tool objects of every server whose list changed, names unique across servers in settings order. */
  private rebuildTools(): void {
    const changed = [...this.entries.values()].some((entry) => entry.connection && entry.builtFrom !== entry.connection.tools);
    if (!changed) return;
    const taken = new Set<string>();
    for (const entry of this.entries.values()) {
      const connection = entry.connection;
      if (!connection) continue;
      const listed = connection.tools;
      entry.tools = listed.map(
        (tool) =>
          new McpTool(
            { server: entry.spec.name, name: tool.name, modelName: modelToolName(entry.spec.name, tool.name, taken), description: tool.description, inputSchema: tool.inputSchema, readOnly: tool.readOnly },
            connection,
            entry.spec.secrets,
          ),
      );
      for (const tool of entry.tools) taken.add(tool.name);
      entry.builtFrom = listed;
    }
  }

  private announce(entry: Entry): void {
    if (this.closed && entry.connection?.state !== 'closed') return;
    entry.updatedAt = Date.now();
    this.options.emit({ type: 'mcp-status', runId: null, status: this.statusOf(entry) });
  }

  private statusOf(entry: Entry): McpServerStatus {
    const { spec, connection } = entry;
    const base = { name: spec.name, updatedAt: entry.updatedAt };
    if (!spec.enabled) return { ...base, state: 'disabled', tools: [] };
    if (!spec.launch || !connection) return { ...base, state: 'failed', tools: [], error: spec.problem ?? 'Its settings cannot be used.' };
    this.rebuildTools();
    const state = connection.state === 'closed' ? 'stopped' : connection.state;
    const tail = connection.stderrTail;
    return {
      ...base,
      state,
      tools: entry.tools.map((tool) => this.toolView(entry, tool)),
      ...(connection.error ? { error: connection.error } : {}),
      ...(tail && state !== 'ready' && state !== 'starting' ? { stderrTail: tail } : {}),
      ...(connection.serverInfo ? { serverInfo: connection.serverInfo } : {}),
    };
  }

  private toolView(entry: Entry, tool: McpTool): McpToolView {
    const phases: Phase[] = tool.info.readOnly && entry.spec.researchReadOnly ? ['research', 'implement'] : ['implement'];
    return { name: tool.info.name, modelName: tool.name, description: tool.info.description, readOnly: tool.info.readOnly, phases, alwaysAllowed: entry.allowed.has(tool.info.name) };
  }
}

/** Waits for `promise`, or only until `signal` aborts. */
async function untilAborted(promise: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return void (await promise);
  if (signal.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([promise.then(() => undefined, () => undefined), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Whether a changed spec can keep its running server: same program or URL, same environment, same timeout. */
function sameRun(before: McpServerSpec, after: McpServerSpec): boolean {
  return before.enabled === after.enabled && before.timeoutMs === after.timeoutMs && before.problem === after.problem && JSON.stringify(before.launch) === JSON.stringify(after.launch);
}
