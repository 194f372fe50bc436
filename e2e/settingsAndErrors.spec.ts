import { expect, test } from '@playwright/test';
import { openBench, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';
import { closedPort as closedPortNumber } from '../tests/support/closedPort.js';

let bench: Bench;

test.afterEach(runTeardown);

test('Test connection lists the server models with the unsaved settings, or shows the exact error', async ({ page }) => {
  bench = await openBench(page, { files: 'ask', commands: 'ask', reviewPlan: false });
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByLabel('Model').fill('fake-model');
  await dialog.getByTestId('test-connection').click();
  const result = dialog.getByTestId('connection-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('“fake-model” is among them.');
  await page.screenshot({ path: 'e2e/screenshots/settings-1-test-connection.png' });

  const closedPort = new URL(bench.model.llm.baseUrl);
  closedPort.port = String(await closedPortNumber());
  await dialog.getByLabel('Base URL').fill(closedPort.toString());
  await dialog.getByTestId('test-connection').click();
  await expect(result).toHaveAttribute('data-ok', 'false');
  await expect(result).toHaveText(`Cannot reach the model server at ${closedPort.toString()} (ECONNREFUSED). Check the base URL and that the server is running.`);
  await page.screenshot({ path: 'e2e/screenshots/settings-2-connection-error.png' });
});

test('a run that fails on the model server says why in the chat, and Retry goes on from there', async ({ page }) => {
  bench = await openBench(page, { files: 'auto', commands: 'auto', reviewPlan: false });
  const { model } = bench;
  await sendRequest(page, 'Summarise the statement');
  await model.answer('research', { fault: 'http-401' });
  const failure = page.getByTestId('run-failure');
  await expect(failure).toContainText('rejected the API key (HTTP 401)');
  await expect(page.locator('[data-phase="research"]')).toHaveAttribute('data-state', 'failed');
  await page.screenshot({ path: 'e2e/screenshots/run-8-failed-with-retry.png' });

  await failure.getByRole('button', { name: 'Retry' }).click();
  await model.answer('research', say('One statement file.'));
  await model.answer('plan', say('# Execution Plan\n\n## Items\n'));
  await model.answer('summary', say('Nothing needed changing.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Nothing needed changing.');
  await expect(failure).toHaveCount(0);
});

