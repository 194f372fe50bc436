// A small MCP server built on the official SDK's Server class, for the one behaviour the servers on the
// registry do not show on demand: its tool list changes while it runs. `add_tool` registers a new tool
// and the SDK sends notifications/tools/list_changed, as any server with `tools.listChanged` does.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = [
  {
    name: 'add_tool',
    description: 'Adds a tool with the given name to this server.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
];
const added = new Set();

const server = new Server({ name: 'tool-list-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
  if (params.name === 'add_tool') {
    const name = String(params.arguments?.name ?? 'extra');
    tools.push({ name, description: `Says that ${name} was called.`, inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } });
    added.add(name);
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: `Added ${name}.` }] };
  }
  if (added.has(params.name)) return { content: [{ type: 'text', text: `${params.name} was called.` }] };
  return { content: [{ type: 'text', text: `Unknown tool ${params.name}` }], isError: true };
});
await server.connect(new StdioServerTransport());
