import { readlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { UnsequencedEvent } from '../../../engine/contract/index.js';
import { memoryMcpAllowances } from '../../../engine/mcp/allowedMcpTools.js';
import { McpConfigStore } from '../../../engine/mcp/mcpConfigStore.js';
import { McpHub, type McpHubOptions } from '../../../engine/mcp/mcpHub.js';
import type { McpTool } from '../../../engine/mcp/mcpTool.js';
import { noKeyStorage } from '../../../engine/settings/keyCipher.js';
import { ToolError, type Tool } from '../../../engine/tools/tool.js';
import { everythingScript, filesystemScript, stdioServer, toolListScript, useEverythingHttp, writeMcpConfig } from '../../support/mcpServers.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { isGone } from '../../support/processProbe.js';
import { within } from '../../support/within.js';

const noCipher = noKeyStorage('no keychain in tests');

async function callOf(tools: readonly Tool[], name: string, args: Record<string, unknown> = {}, signal = new AbortController().signal): Promise<string> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(', ')}`);
  return (await tool.run(args, { signal, log: () => {} } as never)).text;
}

describe('the MCP hub, against real servers', () => {
  const tempFolder = useTempFolders('rpi-mcp-hub-');
  const startHttp = useEverythingHttp();
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  });

  async function hubWith(servers: Record<string, unknown>, options: Partial<McpHubOptions> = {}) {
    const configDir = await tempFolder();
    const folder = await tempFolder();
    await writeTree(folder, { 'README.md': '# demo\n', 'src/app.ts': 'export {};\n' });
    await writeMcpConfig(configDir, servers);
    const store = new McpConfigStore({ configDir, cipher: noCipher });
    const events: UnsequencedEvent[] = [];
    const hub = new McpHub({
      folder,
      specs: () => store.specs(),
      allowances: memoryMcpAllowances(),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder },
      emit: (event) => events.push(event),
      ...options,
    });
    hubs.push(hub);
    await hub.start();
    return { hub, folder, configDir, events };
  }

  it('starts server-everything over stdio in the folder and lists its tools with their schemas and read-only marks', async () => {
    const { hub, folder, events } = await hubWith({ everything: stdioServer(everythingScript, ['stdio']) });

    const tools = await hub.toolsFor('implement');

    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__toggle-simulated-logging']));
    const sum = tools.find((tool) => tool.name === 'mcp__everything__get-sum');
    expect(sum?.jsonSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(sum?.mutates).toBe(false);
    expect(tools.find((tool) => tool.name === 'mcp__everything__toggle-simulated-logging')?.mutates).toBe(true);
    const [status] = hub.statuses();
    expect(status).toMatchObject({ name: 'everything', state: 'ready', serverInfo: expect.stringContaining('Everything') });
    expect(status?.tools.find((tool) => tool.name === 'echo')).toMatchObject({ modelName: 'mcp__everything__echo', description: 'Echoes back the input string', readOnly: true, phases: ['implement'] });
    const states = events.flatMap((event) => (event.type === 'mcp-status' ? [event.status.state] : []));
    expect(states[0]).toBe('starting');
    expect(states.at(-1)).toBe('ready');
    const pid = hub.connection('everything')?.pid ?? 0;
    expect(await readlink(`/proc/${pid}/cwd`)).toBe(folder);
    expect(await callOf(tools, 'mcp__everything__get-sum', { a: 2, b: 3 })).toBe('The sum of 2 and 3 is 5.');
  });

  it('speaks Streamable HTTP to server-everything, with the configured headers', async () => {
    const { url } = await startHttp();
    const { hub } = await hubWith({ remote: { type: 'http', url, headers: { 'X-Client': 'workbench-test' } } });

    const tools = await hub.toolsFor('implement');

    expect(tools.map((tool) => tool.name)).toContain('mcp__remote__echo');
    expect(await callOf(tools, 'mcp__remote__echo', { message: 'over HTTP' })).toBe('Echo: over HTTP');
    expect(hub.statuses()[0]).toMatchObject({ name: 'remote', state: 'ready' });
  });

  it('offers server-filesystem the opened folder as its root, and its writing tools in Implement only', async () => {
    const { hub, folder } = await hubWith({ files: { ...stdioServer(filesystemScript), researchReadOnly: true } });

    const implement = await hub.toolsFor('implement');
    const research = await hub.toolsFor('research');

    // The server asks for the roots once initialized; the answer lands within moments.
    const allowed = await within(5000, () => callOf(implement, 'mcp__files__list_allowed_directories'), (text) => text.includes(folder));
    expect(allowed).toBe(`Allowed directories:\n${folder}`);
    expect(await callOf(research, 'mcp__files__list_directory', { path: folder })).toMatch(/\[FILE\] README\.md[\s\S]*\[DIR\] src/);
    expect(implement.map((tool) => tool.name)).toContain('mcp__files__write_file');
    expect(research.map((tool) => tool.name)).not.toContain('mcp__files__write_file');
    expect(research.every((tool) => !tool.mutates)).toBe(true);
  });

  it('offers read-only tools in Research only for a server the user allowed there, and nothing in Plan or the summary', async () => {
    const { hub } = await hubWith({
      allowed: { ...stdioServer(everythingScript, ['stdio']), researchReadOnly: true },
      other: stdioServer(everythingScript, ['stdio']),
    });

    const research = (await hub.toolsFor('research')).map((tool) => tool.name);

    expect(research).toContain('mcp__allowed__echo');
    expect(research).not.toContain('mcp__allowed__toggle-simulated-logging');
    expect(research.filter((name) => name.startsWith('mcp__other__'))).toEqual([]);
    expect(await hub.toolsFor('plan')).toEqual([]);
    expect(await hub.toolsFor('summary')).toEqual([]);
    expect((await hub.toolsFor('implement')).map((tool) => tool.name)).toEqual(expect.arrayContaining(['mcp__other__echo', 'mcp__allowed__toggle-simulated-logging']));
  });

  it('describes images, resources and resource links in words, and keeps embedded text', async () => {
    const { hub } = await hubWith({ everything: stdioServer(everythingScript, ['stdio']) });
    const tools = await hub.toolsFor('implement');

    const image = await callOf(tools, 'mcp__everything__get-tiny-image');
    const text = await callOf(tools, 'mcp__everything__get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    const blob = await callOf(tools, 'mcp__everything__get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
    const links = await callOf(tools, 'mcp__everything__get-resource-links', { count: 2 });

    expect(image).toMatch(/^Here's the image you requested:\n\[Image \(image\/png, \d+\.\d KB\) returned by the tool; images are not shown to you here, only this description\.\]\n/);
    expect(image).not.toContain('iVBORw0KGgo');
    expect(text).toMatch(/\[Resource <demo:\/\/resource\/dynamic\/text\/1>, text\/plain\]\nResource 1: This is a plaintext resource/);
    expect(blob).toMatch(/\[Resource <demo:\/\/resource\/dynamic\/blob\/2>, text\/plain, \d+ bytes of binary data, not shown\]/);
    expect(links).toMatch(/\[Resource link: .+ <demo:\/\/resource\/dynamic\/(text|blob)\/1>/);
  });

  it('validates arguments against the server schema before calling', async () => {
    const { hub } = await hubWith({ everything: stdioServer(everythingScript, ['stdio']) });
    const sum = (await hub.toolsFor('implement')).find((tool) => tool.name === 'mcp__everything__get-sum') as McpTool;

    const checked = sum.parameters.safeParse({ a: 'two' });

    expect(checked.success).toBe(false);
    const problems = checked.error?.issues.map((issue) => issue.message).join(' ');
    expect(problems).toContain('arguments/a must be number');
    expect(problems).toContain("arguments must have required property 'b'");
  });

  it('reports a server killed mid-call, with how it ended, and starts it again on the next call', async () => {
    const { hub, events } = await hubWith({ everything: stdioServer(everythingScript, ['stdio']) });
    const tools = await hub.toolsFor('implement');
    const firstPid = hub.connection('everything')?.pid ?? 0;

    const call = callOf(tools, 'mcp__everything__trigger-long-running-operation', { duration: 20, steps: 20 });
    await delay(300);
    process.kill(firstPid, 'SIGKILL');

    const failure = await call.then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolError);
    expect((failure as Error).message).toMatch(/^The MCP tool "trigger-long-running-operation" of the server "everything" failed: The server "everything" stopped \(killed by SIGKILL\)\..* It starts again on the next call\.$/);
    expect(hub.statuses()[0]).toMatchObject({ state: 'stopped', error: expect.stringContaining('killed by SIGKILL') });
    expect(events.some((event) => event.type === 'warning' && event.message.includes('The MCP server "everything" stopped (killed by SIGKILL)'))).toBe(true);

    expect(await callOf(tools, 'mcp__everything__echo', { message: 'again' })).toBe('Echo: again');
    expect(hub.connection('everything')?.pid).not.toBe(firstPid);
    expect(hub.statuses()[0]?.state).toBe('ready');
  });

  it('stops a stdio server and everything it started when a call is cancelled, and starts it afresh for the next call', async () => {
    const { hub } = await hubWith({ everything: stdioServer(everythingScript, ['stdio']) });
    const tools = await hub.toolsFor('implement');
    const pid = hub.connection('everything')?.pid ?? 0;
    const cancel = new AbortController();

    const call = callOf(tools, 'mcp__everything__trigger-long-running-operation', { duration: 20, steps: 20 }, cancel.signal);
    await delay(300);
    cancel.abort();

    await expect(call).rejects.toBeDefined();
    expect(await within(5000, () => isGone(pid), Boolean)).toBe(true);
    expect(hub.statuses()[0]).toMatchObject({ state: 'stopped', error: expect.stringContaining('the call was cancelled') });
    expect(await callOf(tools, 'mcp__everything__echo', { message: 'fresh' })).toBe('Echo: fresh');
  });

  it('gives up on a call at the server timeout and says so to the model', async () => {
    const { hub } = await hubWith({ everything: { ...stdioServer(everythingScript, ['stdio']), timeoutSeconds: 1 } });
    const tools = await hub.toolsFor('implement');

    const failure = await callOf(tools, 'mcp__everything__trigger-long-running-operation', { duration: 5, steps: 1 }).catch((error: unknown) => error);

    expect((failure as Error).message).toMatch(/did not answer within 1 second, so it was cancelled and the server stopped; it starts again on the next call/);
    expect(await callOf(tools, 'mcp__everything__echo', { message: 'after timeout' })).toBe('Echo: after timeout');
  });

  it('picks up notifications/tools/list_changed before the next turn', async () => {
    const { hub, events } = await hubWith({ changing: stdioServer(toolListScript) });
    const before = await hub.toolsFor('implement');
    expect(before.map((tool) => tool.name)).toEqual(['mcp__changing__add_tool']);

    expect(await callOf(before, 'mcp__changing__add_tool', { name: 'fresh_tool' })).toBe('Added fresh_tool.');
    const after = await hub.toolsFor('implement');

    expect(after.map((tool) => tool.name)).toEqual(['mcp__changing__add_tool', 'mcp__changing__fresh_tool']);
    expect(await callOf(after, 'mcp__changing__fresh_tool')).toBe('fresh_tool was called.');
    const last = events.filter((event) => event.type === 'mcp-status').at(-1);
    expect(last?.type === 'mcp-status' && last.status.tools.map((tool) => tool.name)).toEqual(['add_tool', 'fresh_tool']);
  });

  it('reports a server that cannot start with what it wrote on stderr', async () => {
    const { hub } = await hubWith({
      broken: { command: process.execPath, args: ['-e', "console.error('fatal: GITHUB_TOKEN is not set'); process.exit(3)"] },
      missing: { command: 'no-such-mcp-server-program' },
    });

    const statuses = await within(10_000, () => hub.statuses(), (all) => all.every((status) => status.state === 'failed'));

    const broken = statuses.find((status) => status.name === 'broken');
    expect(broken?.error).toBe('The server "broken" could not start (exit code 3): it exited before the MCP handshake was done. Its last words on stderr: fatal: GITHUB_TOKEN is not set');
    expect(broken?.stderrTail).toBe('fatal: GITHUB_TOKEN is not set');
    expect(statuses.find((status) => status.name === 'missing')?.error).toMatch(/Could not start "no-such-mcp-server-program": no such program/);
    expect(await hub.toolsFor('implement')).toEqual([]);
  });

  it('passes a stdio server no credential of the host, only those in its own env, and hides those from results', async () => {
    const { hub } = await hubWith(
      { everything: stdioServer(everythingScript, ['stdio'], { env: { SERVICE_TOKEN: 'svc-0123456789abcdef', PLAIN_SETTING: 'visible' } }) },
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', LANG: 'C.UTF-8' } },
    );

    const environment = await callOf(await hub.toolsFor('implement'), 'mcp__everything__get-env');

    expect(environment).toContain('"LANG": "C.UTF-8"');
    expect(environment).toContain('"PLAIN_SETTING": "visible"');
    expect(environment).not.toContain('GITHUB_TOKEN');
    expect(environment).toContain('"SERVICE_TOKEN": "[hidden: everything SERVICE_TOKEN]"');
    expect(environment).not.toContain('svc-0123456789abcdef');
    expect(environment).toMatch(/"RPI_WORKBENCH_COMMAND": "[0-9a-f]{12}\./);
  });

  it('stops every server, with all it started, when the folder closes', async () => {
    const { hub } = await hubWith({ one: stdioServer(everythingScript, ['stdio']), two: stdioServer(filesystemScript) });
    await hub.toolsFor('implement');
    const pids = [hub.connection('one')?.pid ?? 0, hub.connection('two')?.pid ?? 0];

    await hub.close();

    expect(pids.map(isGone)).toEqual([true, true]);
  });
});
