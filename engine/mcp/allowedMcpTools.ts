import { z } from 'zod';
import { JsonConfigFile } from '../settings/jsonConfigFile.js';

/** Where "always allow" answers for MCP tools are kept; hosts without a config dir keep them in memory. */
export interface McpAllowanceStore {
  /** The tools of `server` the user allowed while it ran what `definition` describes. */
  list(server: string, definition: string): Promise<string[]>;
  add(server: string, definition: string, tool: string): Promise<void>;
  remove(server: string, tool: string): Promise<void>;
}

const schema = z.record(z.string(), z.object({ definition: z.string(), tools: z.array(z.string()) }));

/**
 * MCP tools the user chose to "always allow", per server, in `<configDir>/mcp-allowed-tools.json` (like
 * allowed-commands.json, never in a folder). Each is bound to the server's definition — its command,
 * arguments and working folder, or its URL — so pointing the name at another program asks again.
 */
export class AllowedMcpTools implements McpAllowanceStore {
  private readonly file: JsonConfigFile<z.infer<typeof schema>>;

  constructor(configDir: string) {
    this.file = new JsonConfigFile(configDir, 'mcp-allowed-tools.json', schema, () => ({}));
  }

  async list(server: string, definition: string): Promise<string[]> {
    const entry = (await this.file.read())[server];
    return entry?.definition === definition ? entry.tools : [];
  }

  async add(server: string, definition: string, tool: string): Promise<void> {
    const all = await this.file.read();
    const current = all[server]?.definition === definition ? (all[server]?.tools ?? []) : [];
    await this.file.write({ ...all, [server]: { definition, tools: [...new Set([...current, tool])] } });
  }

  async remove(server: string, tool: string): Promise<void> {
    const all = await this.file.read();
    const entry = all[server];
    if (!entry?.tools.includes(tool)) return;
    await this.file.write({ ...all, [server]: { ...entry, tools: entry.tools.filter((name) => name !== tool) } });
  }
}

/** "Always allow" answers that last as long as the process, for hosts that keep none in the user's config. */
export function memoryMcpAllowances(): McpAllowanceStore {
  const byServer = new Map<string, { definition: string; tools: Set<string> }>();
  return {
    list: async (server, definition) => {
      const entry = byServer.get(server);
      return entry?.definition === definition ? [...entry.tools] : [];
    },
    add: async (server, definition, tool) => {
      const entry = byServer.get(server);
      const tools = entry?.definition === definition ? entry.tools : new Set<string>();
      byServer.set(server, { definition, tools: tools.add(tool) });
    },
    remove: async (server, tool) => void byServer.get(server)?.tools.delete(tool),
  };
}
