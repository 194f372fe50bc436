import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpListedTool } from '@modelcontextprotocol/sdk/types.js';

/** A tool as the server listed it: name, description, schema, and whether it says it is read-only. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

/** Every page of a server's tool list, as the workbench keeps it. */
export async function listedTools(client: Client): Promise<ListedTool[]> {
  const tools: McpListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && tools.length < 10_000);
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? tool.title ?? tool.annotations?.title ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    readOnly: tool.annotations?.readOnlyHint === true,
  }));
}
