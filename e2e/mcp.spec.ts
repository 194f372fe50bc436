import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { everythingScript, startEverythingHttp, stopServer } from '../tests/support/mcpServers.js';
import { serveFolder } from './support/serveHost.js';
import { startSteppedModel, type SteppedModel } from './support/steppedModel.js';
import { afterTest, runTeardown } from './support/teardown.js';
import { planText, say, sendRequest } from './support/workbenchPage.js';

test.afterEach(runTeardown);

/** server-everything's Streamable HTTP transport on a free loopback port, stopped after the test. */
async function everythingOverHttp(): Promise<string> {
  const { url } = await startEverythingHttp((child) => afterTest(() => stopServer(child)));
  return url;
}

/** A folder served with the real MCP servers of `servers` in its config dir's mcp.json, and a stepped model. */
async function openMcpBench(page: Page, servers: Record<string, unknown>): Promise<{ folder: string; model: SteppedModel }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-e2e-mcp-'));
  afterTest(() => rm(folder, { recursive: true, force: true }));
  await writeFile(path.join(folder, 'README.md'), '# Ledger\n\nConverts bank statements.\n');
  const model = await startSteppedModel();
  afterTest(() => model.close());
  const settings = { baseUrl: model.llm.baseUrl, model: 'fake-model', contextWindow: 32_000, toolMode: 'native' as const, approvals: { files: 'ask' as const, commands: 'ask' as const } };
  const served = await serveFolder(folder, {}, settings, { 'mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) });
  afterTest(() => served.stop());
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toBeVisible();
  return { folder, model };
}

const everything = { command: process.execPath, args: [everythingScript, 'stdio'], researchReadOnly: true };

test('the MCP settings page: servers ready with their tools, one that failed with its stderr, and the add form', async ({ page }) => {
  const url = await everythingOverHttp();
  await openMcpBench(page, {
    everything,
    remote: { type: 'http', url },
    github: { command: process.execPath, args: ['-e', "console.error('Error: GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set'); process.exit(1)"] },
  });

  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  const card = (name: string) => dialog.locator(`[data-testid="mcp-server"][data-name="${name}"]`);
  await expect(card('everything')).toHaveAttribute('data-state', 'ready');
  await expect(card('remote')).toHaveAttribute('data-state', 'ready');
  await expect(card('github')).toHaveAttribute('data-state', 'failed');
  await expect(card('everything').getByTestId('mcp-state')).toHaveText(/^Ready · \d+ tools$/);
  await expect(card('everything')).toContainText('Echoes back the input string');
  await expect(card('github').getByTestId('mcp-stderr')).toHaveText('Error: GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set');
  await card('everything').locator('summary').click();
  await expect(card('everything').getByTestId('mcp-tool').first()).toBeVisible();
  await page.setViewportSize({ width: 1360, height: 1500 });
  await page.screenshot({ path: 'e2e/screenshots/mcp-1-settings.png' });
  await page.setViewportSize({ width: 1360, height: 900 });

  await dialog.getByRole('button', { name: 'Add server' }).click();
  const form = dialog.getByTestId('mcp-form');
  await form.getByLabel('Name').fill('github');
  await expect(form.getByLabel('Name')).toHaveJSProperty('validity.valid', true);
  await form.getByLabel('Command').fill('npx');
  await form.getByLabel('Arguments').fill('-y\n@modelcontextprotocol/server-github');
  await form.getByRole('button', { name: 'Add variable' }).click();
  await form.getByLabel('variable 1 name').fill('GITHUB_PERSONAL_ACCESS_TOKEN');
  await form.getByLabel('variable 1 value').fill('ghp_example');
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/mcp-2-add-server.png' });
  await form.getByRole('button', { name: 'Add server' }).click();
  // A server by that name exists: the engine says so, and the form stays open.
  await expect(dialog.getByRole('alert')).toContainText('A server named "github" already exists');
});

test('an MCP approval card: the call is asked for, approved, and its result goes to the model', async ({ page }) => {
  const { folder, model } = await openMcpBench(page, { everything });
  await sendRequest(page, 'Add 20 and 22 with the MCP server');
  await model.answer('research', say('The folder holds a README.'));
  await model.answer('plan', say(planText('Add the numbers')));

  const held = await model.next();
  expect(held.phase).toBe('implement');
  expect(held.body.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : ''))).toContain('mcp__everything__get-sum');
  held.answer({ toolCalls: [{ name: 'mcp__everything__get-sum', arguments: { a: 20, b: 22 } }] });

  const approval = page.getByTestId('approval-card');
  await expect(approval).toHaveAttribute('data-status', 'pending');
  await expect(approval).toContainText('Call an MCP tool');
  await expect(approval).toContainText('"get-sum" is a tool of your MCP server "everything"');
  await expect(approval.getByRole('button', { name: 'Always allow this MCP tool' })).toBeVisible();
  await expect(approval.getByTestId('approval-args')).toContainText('"a": 20');
  await page.screenshot({ path: 'e2e/screenshots/mcp-3-approval.png' });
  await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(approval).toHaveAttribute('data-status', 'approved');

  const told = await model.next();
  expect(JSON.stringify(told.body.messages)).toContain('The sum of 20 and 22 is 42.');
  told.answer(say('The server says 42.'));
  await model.answer('summary', say('The MCP server added **20 + 22 = 42**.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('20 + 22 = 42');
  const log = await readFile(path.join(folder, '.workbench', 'tool-log.jsonl'), 'utf8');
  expect(log).toContain('"tool":"mcp__everything__get-sum"');
});
