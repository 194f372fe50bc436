import type { McpOverview, McpServerInput, McpServerStatus } from '../contract/index.js';
import type { McpAllowanceStore } from './allowedMcpTools.js';
import type { McpConfigStore, McpServerSettings } from './mcpConfigStore.js';
import type { WorkbenchMcp } from './workbenchMcp.js';

export interface McpSettingsDeps {
  store: McpConfigStore;
  allowances: McpAllowanceStore;
  /** The servers of the folder open in this window, when one is. */
  running: () => WorkbenchMcp | null;
}

/**
 * What the Settings page does with MCP servers: list them with their live status, add, edit, remove,
 * enable or disable them (the open folder's servers follow at once), restart one, and allow a tool always.
 * Every answer is the whole overview again, so the page shows what is stored and running.
 */
export class McpSettings {
  constructor(private readonly deps: McpSettingsDeps) {}

  async overview(): Promise<McpOverview> {
    const running = this.deps.running();
    const live = new Map((running?.statuses() ?? []).map((status) => [status.name, status]));
    const storage = this.deps.store.secretStorage();
    const servers = await this.deps.store.servers();
    return {
      servers: servers.map(({ problem, ...server }) => ({ ...server, status: live.get(server.name) ?? idleStatus(server, problem) })),
      configFile: this.deps.store.path,
      canStoreSecrets: storage.ok,
      ...(storage.ok ? {} : { secretStorageNote: storage.reason }),
      folderOpen: running !== null,
    };
  }

  async save(server: McpServerInput, previousName?: string): Promise<McpOverview> {
    await this.deps.store.save(server, previousName);
    return this.applied();
  }

  async remove(name: string): Promise<McpOverview> {
    await this.deps.store.remove(name);
    return this.applied();
  }

  async setEnabled(name: string, enabled: boolean): Promise<McpOverview> {
    await this.deps.store.setEnabled(name, enabled);
    return this.applied();
  }

  async restart(name: string): Promise<McpOverview> {
    const running = this.deps.running();
    if (!running) throw new Error('MCP servers run only while a folder is open: open one first.');
    await running.restart(name);
    return this.overview();
  }

  /** "Always allow" for one tool, set or taken back; bound to what the server runs now. */
  async allowTool(server: string, tool: string, allowed: boolean): Promise<McpOverview> {
    const running = this.deps.running();
    if (running?.statuses().some((status) => status.name === server)) {
      await running.setAllowed(server, tool, allowed);
      return this.overview();
    }
    const spec = (await this.deps.store.specs()).find((candidate) => candidate.name === server);
    if (!spec) throw new Error(`There is no MCP server named "${server}".`);
    if (allowed) await this.deps.allowances.add(server, spec.definition, tool);
    else await this.deps.allowances.remove(server, tool);
    return this.overview();
  }

  /** The open folder's servers follow the stored settings before the answer goes out. */
  private async applied(): Promise<McpOverview> {
    await this.deps.running()?.reload();
    return this.overview();
  }
}

/** The status of a server that is not running here: disabled, unusable, or waiting for a folder to open. */
function idleStatus(server: McpServerSettings, problem: string | undefined): McpServerStatus {
  const base = { name: server.name, tools: [], updatedAt: 0 };
  if (!server.enabled) return { ...base, state: 'disabled' };
  return problem ? { ...base, state: 'failed', error: problem } : { ...base, state: 'idle' };
}
