// @vitest-environment happy-dom
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserHandlers } from '../../../../cli/serve/browserHandlers.js';
import { createDispatch } from '../../../../engine/contract/index.js';
import { openWorkbench, type Workbench } from '../../../../engine/index.js';
import { userMcp } from '../../../../engine/mcp/userMcp.js';
import { RecentFolders, SettingsStore, noKeyStorage } from '../../../../engine/settings/index.js';
import { createWorkbenchStore } from '../../../../renderer/src/store/workbenchStore.js';
import { dispatchBridge } from '../../../support/dispatchBridge.js';
import { everythingScript, stdioServer, writeMcpConfig } from '../../../support/mcpServers.js';
import { renderStarted } from '../../../support/servedApp.js';

let temp: string;
let workbench: Workbench | null;

beforeEach(async () => {
  temp = await mkdtemp(path.join(os.tmpdir(), 'rpi-mcp-page-'));
  workbench = null;
});

afterEach(async () => {
  cleanup();
  await workbench?.close();
  await rm(temp, { recursive: true, force: true });
});

/** The app as the browser host serves it for a folder, with the MCP servers of `configDir`. */
async function renderProject(servers: Record<string, unknown>) {
  const configDir = path.join(temp, 'config');
  const project = path.join(temp, 'project');
  await mkdir(project);
  await writeFile(path.join(project, 'README.md'), '# demo\n');
  await writeMcpConfig(configDir, servers);
  const cipher = noKeyStorage('no keychain here');
  const mcp = userMcp(configDir, cipher);
  workbench = await openWorkbench(project, { mcp: mcp.workbenchOptions() });
  const current = workbench;
  const handlers = browserHandlers(current, new SettingsStore({ configDir, cipher, env: {} }), new RecentFolders(configDir), mcp);
  await renderStarted(createWorkbenchStore(dispatchBridge(createDispatch(handlers), (listener) => current.subscribe(listener))));
  fireEvent.keyDown(window, { key: ',', ctrlKey: true });
  fireEvent.click(await screen.findByRole('tab', { name: 'MCP servers' }));
  return { configDir, project };
}

const serverCard = (name: string) => screen.getAllByTestId('mcp-server').find((card) => card.dataset['name'] === name)!;

describe('Settings → MCP servers', () => {
  it('shows a server starting and then ready with its tools, their descriptions and where they are offered', async () => {
    await renderProject({ everything: { ...stdioServer(everythingScript, ['stdio']), researchReadOnly: true } });

    await waitFor(() => expect(serverCard('everything').dataset['state']).toBe('ready'), { timeout: 10_000 });

    const card = serverCard('everything');
    expect(within(card).getByTestId('mcp-state').textContent).toMatch(/^Ready · \d+ tools$/);
    const echo = within(card).getAllByTestId('mcp-tool').find((tool) => tool.textContent?.includes('echo'))!;
    expect(echo.textContent).toContain('Echoes back the input string');
    expect(echo.textContent).toContain('read-only');
    expect(echo.textContent).toContain('Research, Implement');
    const toggle = within(card).getAllByTestId('mcp-tool').find((tool) => tool.textContent?.includes('toggle-simulated-logging'))!;
    expect(toggle.textContent).not.toContain('read-only');
  });

  it('shows a failed server with what it wrote on stderr', async () => {
    await renderProject({ broken: { command: process.execPath, args: ['-e', "console.error('Error: GITHUB_TOKEN is not set'); process.exit(1)"] } });

    await waitFor(() => expect(serverCard('broken').dataset['state']).toBe('failed'), { timeout: 10_000 });

    expect(within(serverCard('broken')).getByTestId('mcp-error').textContent).toContain('could not start (exit code 1)');
    expect(within(serverCard('broken')).getByTestId('mcp-stderr').textContent).toBe('Error: GITHUB_TOKEN is not set');
  });

  it('adds a server through the form, which starts at once, and lets a tool be always allowed', async () => {
    const { configDir } = await renderProject({});
    expect(await screen.findByText('No MCP servers yet.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add server' }));
    const form = screen.getByTestId('mcp-form');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'everything' } });
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: process.execPath } });
    fireEvent.change(within(form).getByLabelText('Arguments'), { target: { value: `${everythingScript}\nstdio` } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add variable' }));
    fireEvent.change(within(form).getByLabelText('variable 1 name'), { target: { value: 'LOG_LEVEL' } });
    fireEvent.change(within(form).getByLabelText('variable 1 value'), { target: { value: 'debug' } });
    fireEvent.submit(form);

    await waitFor(() => expect(serverCard('everything').dataset['state']).toBe('ready'), { timeout: 10_000 });
    const stored = JSON.parse(await readFile(path.join(configDir, 'mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(stored.mcpServers['everything']).toEqual({ command: process.execPath, args: [everythingScript, 'stdio'], env: { LOG_LEVEL: 'debug' } });

    const echo = within(serverCard('everything')).getAllByTestId('mcp-tool').find((tool) => tool.textContent?.includes('echo'))!;
    fireEvent.click(within(echo).getByLabelText('Always allow'));
    await waitFor(() => expect((within(echo).getByLabelText('Always allow') as HTMLInputElement).checked).toBe(true));
    expect(JSON.parse(await readFile(path.join(configDir, 'mcp-allowed-tools.json'), 'utf8'))).toMatchObject({ everything: { tools: ['echo'] } });
  });

  it('refuses a secret where there is no keychain, saying why, and disables a server', async () => {
    const { configDir } = await renderProject({ everything: stdioServer(everythingScript, ['stdio']) });
    expect(await screen.findByText(/Secret values cannot be stored here/)).toBeTruthy();

    fireEvent.click(within(serverCard('everything')).getByLabelText('Enable everything'));

    await waitFor(() => expect(serverCard('everything').dataset['state']).toBe('disabled'));
    const stored = JSON.parse(await readFile(path.join(configDir, 'mcp.json'), 'utf8')) as { mcpServers: Record<string, { disabled?: boolean }> };
    expect(stored.mcpServers['everything']?.disabled).toBe(true);
    expect(workbench?.mcp?.statuses()[0]?.state).toBe('disabled');
  });
});
