import path from 'node:path';
import { noKeyStorage, userMcp, type WorkbenchMcpOptions } from '../../engine/index.js';
import { CliError } from './cliError.js';
import type { RunFlags } from './runFlags.js';

/** Why the command line cannot store or read secrets the desktop app sealed with its OS keychain. */
const noKeychain = 'The command line has no access to the desktop app’s OS keychain.';

/**
 * The MCP servers a run from the command line uses, from `mcp.json` in the user's config directory (the
 * file the desktop app's Settings edit): every enabled one, only those named with `--mcp` (enabled for
 * this run even if disabled there), or none with `--no-mcp`. An unknown name is a usage error.
 */
export async function mcpSelection(flags: RunFlags, configDir: string): Promise<WorkbenchMcpOptions | undefined> {
  if (flags.mcp === false) return undefined;
  const mcp = userMcp(configDir, noKeyStorage(noKeychain));
  const options = mcp.workbenchOptions();
  const chosen = flags.mcp;
  if (!chosen?.length) return options;
  const known = (await mcp.store.servers()).map((server) => server.name);
  const unknown = chosen.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const file = path.join(configDir, 'mcp.json');
    const listed = known.length ? `the servers there: ${known.join(', ')}` : 'it lists no server';
    throw new CliError(`There is no MCP server named ${unknown.map((name) => `"${name}"`).join(', ')} in ${file} (${listed}).`);
  }
  return {
    ...options,
    include: (name) => chosen.includes(name),
    specs: async () => (await options.specs()).map((spec) => (chosen.includes(spec.name) ? { ...spec, enabled: true } : spec)),
  };
}
