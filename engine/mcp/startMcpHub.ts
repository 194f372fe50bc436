import type { UnsequencedEvent } from '../contract/index.js';
import { hostEnvironment } from '../secrets/processCredentials.js';
import type { RunOptions } from '../workbench/runController.js';
import { memoryMcpAllowances } from './allowedMcpTools.js';
import { McpHub } from './mcpHub.js';

/**
 * The folder's MCP hub, its servers starting in the background (opening the folder does not wait for
 * them; a run's first turn that needs their tools does); null when the host configured none.
 */
export function startMcpHub({ folder, options, emit }: { folder: string; options: RunOptions; emit: (event: UnsequencedEvent) => void }): McpHub | null {
  const mcp = options.mcp;
  if (!mcp) return null;
  const hub = new McpHub({
    folder,
    specs: mcp.specs,
    allowances: mcp.allowances ?? memoryMcpAllowances(),
    env: options.env ?? hostEnvironment(),
    apiKey: async () => (await options.llmSettings?.())?.apiKey ?? null,
    emit,
    ...(mcp.include ? { include: mcp.include } : {}),
    ...(mcp.startTimeoutMs === undefined ? {} : { startTimeoutMs: mcp.startTimeoutMs }),
  });
  void hub.start().catch((error: unknown) => emit({ type: 'warning', runId: null, message: `The MCP servers could not be read: ${error instanceof Error ? error.message : String(error)}` }));
  return hub;
}
