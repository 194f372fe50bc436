import type { KeyCipher } from '../settings/keyCipher.js';
import { AllowedMcpTools } from './allowedMcpTools.js';
import { McpConfigStore } from './mcpConfigStore.js';
import { McpSettings } from './mcpSettings.js';
import type { WorkbenchMcp, WorkbenchMcpOptions } from './workbenchMcp.js';

/** The user's MCP servers as a host uses them: one config file and one "always allow" file in its config dir. */
export interface UserMcp {
  readonly store: McpConfigStore;
  readonly allowances: AllowedMcpTools;
  /** What openWorkbench takes to run them; `include` narrows which (the CLI's --mcp / --no-mcp). */
  workbenchOptions(include?: (name: string) => boolean): WorkbenchMcpOptions;
  /** The Settings requests of a page whose open folder runs `running()` (null while no folder is open). */
  settingsFor(running: () => WorkbenchMcp | null): McpSettings;
}

export function userMcp(configDir: string, cipher: KeyCipher): UserMcp {
  const store = new McpConfigStore({ configDir, cipher });
  const allowances = new AllowedMcpTools(configDir);
  return {
    store,
    allowances,
    workbenchOptions: (include) => ({ specs: () => store.specs(), allowances, ...(include ? { include } : {}) }),
    settingsFor: (running) => new McpSettings({ store, allowances, running }),
  };
}
