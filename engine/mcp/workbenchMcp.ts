import type { McpServerStatus } from '../contract/index.js';
import type { McpAllowanceStore } from './allowedMcpTools.js';
import type { McpServerSpec } from './mcpConfigStore.js';

/** What a host gives a workbench to run the user's MCP servers with. */
export interface WorkbenchMcpOptions {
  /** The user's servers (McpConfigStore.specs), read when the folder opens and on every reload. */
  specs: () => Promise<McpServerSpec[]>;
  /** Where "always allow" answers are kept; in memory when absent. */
  allowances?: McpAllowanceStore;
  /** Which servers run (the CLI's --mcp / --no-mcp); all when absent. */
  include?: (name: string) => boolean;
  /** How long a server gets to start; tests shorten it. */
  startTimeoutMs?: number;
}

/** The MCP servers of an open folder, as hosts reach them. */
export interface WorkbenchMcp {
  statuses(): McpServerStatus[];
  /** Reads the servers' settings again: new and changed ones (re)start, removed and disabled ones stop. */
  reload(): Promise<void>;
  restart(name: string): Promise<void>;
  /** Sets or takes back "always allow" for one tool of a server. */
  setAllowed(server: string, tool: string, allowed: boolean): Promise<void>;
}
