import { describe, expect, it } from 'vitest';
import { everythingScript } from '../../support/mcpServers.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { isGone } from '../../support/processProbe.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { within } from '../../support/within.js';

/** An engine that starts one MCP server over stdio, prints its pid, and keeps running. */
const engineWithServer = `
const { McpHub } = await import(new URL('./mcp/mcpHub.ts', process.env.ENGINE_URL).href);
const { memoryMcpAllowances } = await import(new URL('./mcp/allowedMcpTools.ts', process.env.ENGINE_URL).href);
const [folder, script] = process.argv.slice(2);
const launch = { kind: 'stdio', command: process.execPath, args: [script, 'stdio'], cwd: '', env: {} };
const spec = { name: 'everything', enabled: true, researchReadOnly: false, timeoutMs: 60000, definition: 'd', launch, secrets: [] };
const hub = new McpHub({ folder, specs: async () => [spec], allowances: memoryMcpAllowances(), env: { PATH: process.env.PATH }, emit: () => {} });
await hub.start();
await hub.toolsFor('implement');
console.log('server ' + hub.connection('everything').pid);
setInterval(() => {}, 1000);
`;

describe.skipIf(process.platform === 'win32')('MCP servers and the engine’s watchdog', () => {
  const tempFolder = useTempFolders('rpi-mcp-watchdog-');
  const startEngine = useEngineChildren(tempFolder);

  it('ends a stdio server when its engine is killed with SIGKILL', async () => {
    const folder = await tempFolder();
    const engine = await startEngine(engineWithServer, [folder, everythingScript]);
    const output = await engine.waitForOutput('server ');
    const pid = Number(/server (\d+)/.exec(output)?.[1]);
    expect(isGone(pid)).toBe(false);

    engine.kill('SIGKILL');
    await engine.exited;

    expect(await within(10_000, () => isGone(pid), Boolean)).toBe(true);
  });
});
