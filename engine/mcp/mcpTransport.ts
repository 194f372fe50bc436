import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpLaunch } from './mcpConfigStore.js';
import { ProcessStdioTransport, type ProcessExit } from './processStdioTransport.js';
import type { StderrTail } from './stderrTail.js';

/**
 * The link to one server as its settings say: a Streamable HTTP session, or a stdio process started in
 * the folder (or its own `cwd` there) from the base environment with the server's own `env` on top.
 */
export async function transportFor(
  { spec: { launch }, folder, baseEnv }: { spec: { launch: McpLaunch }; folder: string; baseEnv: () => Promise<Readonly<Record<string, string>>> },
  stderr: StderrTail,
): Promise<Transport> {
  if (launch.kind === 'http') {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(launch.url), { requestInit: { headers: launch.headers } });
  }
  const cwd = launch.cwd ? path.resolve(folder, launch.cwd) : folder;
  return new ProcessStdioTransport({ command: launch.command, args: launch.args, cwd, env: { ...(await baseEnv()), ...launch.env }, stderr });
}

/** " (exit code 1)", " (killed by SIGKILL)", or nothing while it runs. */
export function exitText(transport: Transport): string {
  const exit: ProcessExit | null = transport instanceof ProcessStdioTransport ? transport.exit : null;
  if (!exit) return '';
  return exit.signal ? ` (killed by ${exit.signal})` : ` (exit code ${exit.code})`;
}
