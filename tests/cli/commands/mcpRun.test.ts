import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { everythingScript, stdioServer, writeMcpConfig } from '../../support/mcpServers.js';
import { call, eventTrail, phaseOfRequest, planText, say, toolNames } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('rpi-workbench run with MCP servers', () => {
  const tempFolder = useTempFolders('rpi-cli-mcp-');
  const llm = useFakeLlm();
  const cli = useCli();

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    return root;
  }

  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];
  const implementRequest = () => llm().chatRequests().find((request) => phaseOfRequest(request) === 'implement');

  it('--json: an Implement item calls a tool of a server in mcp.json, approved with --yes, in the events and the tool log', async () => {
    const root = await project();
    await writeMcpConfig(cli.configDir(), { everything: stdioServer(everythingScript, ['stdio']) });
    llm().enqueue(
      say('The project is a README.'),
      say(planText('Echo')),
      call('mcp__everything__echo', { message: 'hello from the CLI' }),
      say('The server echoed it.'),
      say('The MCP server echoed "hello from the CLI".'),
    );

    const run = await cli.run(['run', root, 'Echo hello through MCP', '--json', '--yes', ...model()]);

    expect(run.code).toBe(0);
    const events = parseJsonEvents(run.stdout);
    expect(eventTrail(events, ['phase-started', 'tool-started', 'approval-requested', 'approval-resolved', 'tool-finished', 'run-finished'])).toEqual([
      'phase-started:research',
      'phase-started:plan',
      'phase-started:implement',
      'tool-started',
      'approval-requested',
      'approval-resolved',
      'tool-finished',
      'phase-started:summary',
      'run-finished',
    ]);
    expect(events.find((event) => event.type === 'tool-started')).toMatchObject({ tool: 'mcp__everything__echo', args: { message: 'hello from the CLI' } });
    expect(events.find((event) => event.type === 'approval-requested')).toMatchObject({ tool: 'mcp__everything__echo', canAlwaysAllow: true });
    expect(events.find((event) => event.type === 'tool-finished')).toMatchObject({ ok: true, summary: 'Echo: hello from the CLI' });
    expect(events.some((event) => event.type === 'mcp-status' && event.status.name === 'everything' && event.status.state === 'ready')).toBe(true);
    const log = (await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log).toEqual([expect.objectContaining({ phase: 'implement', tool: 'mcp__everything__echo', args: { message: 'hello from the CLI' }, result: 'Echo: hello from the CLI', ok: true })]);
  });

  it('shows a person the server coming up and the MCP call, and denies it without a terminal or --yes', async () => {
    const root = await project();
    await writeMcpConfig(cli.configDir(), { everything: stdioServer(everythingScript, ['stdio']) });
    llm().enqueue(say('A README.'), say(planText('Echo')), call('mcp__everything__echo', { message: 'hi' }), say('It was denied.'), say('Nothing was echoed.'));

    const run = await cli.run(['run', root, 'Echo hi', ...model()]);

    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/ {2}MCP server everything: ready, \d+ tools/);
    expect(run.stderr).toContain('rpi-workbench: denied mcp__everything__echo');
    expect(run.stderr).toMatch(/✗ mcp__everything__echo/);
  });

  it('--no-mcp starts no server; --mcp <name> uses only that one, even when disabled in mcp.json', async () => {
    const root = await project();
    await writeMcpConfig(cli.configDir(), {
      first: stdioServer(everythingScript, ['stdio']),
      second: { ...stdioServer(everythingScript, ['stdio']), disabled: true },
    });
    const nothing = () => llm().enqueue(say('A README.'), say(planText('Look')), say('Looked.'), say('Nothing changed.'));

    nothing();
    expect((await cli.run(['run', root, 'Look', '--yes', '--no-mcp', ...model()])).code).toBe(0);
    expect(toolNames(implementRequest()).filter((name) => name.startsWith('mcp__'))).toEqual([]);

    nothing();
    const chosen = await cli.run(['run', root, 'Look again', '--yes', '--mcp', 'second', ...model()]);
    expect(chosen.code).toBe(0);
    const names = toolNames(llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement').at(-1));
    expect(names).toContain('mcp__second__echo');
    expect(names.filter((name) => name.startsWith('mcp__first__'))).toEqual([]);
  });

  it('--mcp with a name mcp.json does not have is a usage error that names the servers there', async () => {
    const root = await project();
    await writeMcpConfig(cli.configDir(), { everything: stdioServer(everythingScript, ['stdio']) });

    const run = await cli.run(['run', root, 'Look', '--mcp', 'github', ...model()]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`There is no MCP server named "github" in ${path.join(cli.configDir(), 'mcp.json')} (the servers there: everything).`);
  });

  it('warns about a server whose secret only the desktop app can read, and runs without it', async () => {
    const root = await project();
    await writeMcpConfig(cli.configDir(), { sealed: { ...stdioServer(everythingScript, ['stdio']), envEncrypted: { API_TOKEN: Buffer.from('sealed by a keychain').toString('base64') } } });
    llm().enqueue(say('A README.'), say(planText('Look')), say('Looked.'), say('Nothing changed.'));

    const run = await cli.run(['run', root, 'Look', '--yes', ...model()]);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'rpi-workbench: warning: MCP server sealed: "sealed" cannot start here: its secret environment variable API_TOKEN is stored encrypted with the desktop app\'s OS keychain, which this program cannot read.',
    );
    expect(toolNames(implementRequest()).filter((name) => name.startsWith('mcp__'))).toEqual([]);
  });
});
