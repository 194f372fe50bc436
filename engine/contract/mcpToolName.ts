/**
 * How MCP tools are told apart by name: `mcp__<server>__<tool>`. Zod-free and import-free, so a page
 * and the CLI can word their approvals with it.
 */
export const mcpToolPrefix = 'mcp__';

/** Server names the Settings page accepts, as the model sees them inside tool names: letters, digits, `_`, `-` and `.`. */
export const mcpServerNamePattern = /^[A-Za-z0-9](?:[\w.]|-){0,39}$/;

export function isMcpToolName(tool: string): boolean {
  return tool.startsWith(mcpToolPrefix);
}

/** What "always allow" covers for an approval of `tool`: the exact command, or the MCP tool. */
export function alwaysAllowWords(tool: string): string {
  return isMcpToolName(tool) ? 'this MCP tool' : 'this command here';
}
