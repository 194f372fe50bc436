import type { UnsequencedEvent } from '../contract/index.js';
import { memoryMcpAllowances } from './allowedMcpTools.js';
import { McpHub } from './mcpHub.js';
import type { WorkbenchMcpOptions } from './workbenchMcp.js';

export interface StartMcpHubOptions {
  folder: string;
  /** The host's MCP servers; none when absent. */
  mcp: WorkbenchMcpOptions | undefined;
  /** The host's environment, credentials included: they are removed before a server inherits it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The models' API keys, kept from the servers' environment. */
  apiKeys: () => Promise<string[]>;
  emit: (event: UnsequencedEvent) => void;
}

/**
 * The folder's MCP hub, its servers starting in the background (opening the folder does not wait for
 * them; a run's first turn that needs their tools does); null when the host configured none.
 */
export function startMcpHub({ folder, mcp, env, apiKeys, emit }: StartMcpHubOptions): McpHub | null {
  if (!mcp) return null;
  const hub = new McpHub({
    folder,
    specs: mcp.specs,
    allowances: mcp.allowances ?? memoryMcpAllowances(),
    env,
    apiKeys,
    emit,
    ...(mcp.include ? { include: mcp.include } : {}),
    ...(mcp.startTimeoutMs === undefined ? {} : { startTimeoutMs: mcp.startTimeoutMs }),
  });
  void hub.start().catch((error: unknown) => emit({ type: 'warning', runId: null, message: `The MCP servers could not be read: ${error instanceof Error ? error.message : String(error)}` }));
  return hub;
}
