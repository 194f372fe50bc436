import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openBench, researchAndPlan, say, sendRequest, writeItem, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';
import { conversationDir } from '../tests/support/conversationDir.js';

let bench: Bench;
const autoApprovals = { files: 'auto', commands: 'auto', reviewPlan: false } as const;

test.afterEach(runTeardown);

// Two requests: the first one's plan (a done and a failed step) is kept when the second clears rpi/, and
// stays viewable, with its outcomes, from the first request in the chat; the second's is its own.
test('View plan on an earlier request shows that request’s plan with each step’s outcome', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  const { model, folder } = bench;
  const messages = page.locator('[data-testid="message"][data-role="user"]');

  await sendRequest(page, 'Add a greeting and a totals workbook');
  await researchAndPlan(model, 'Write greeting', 'Write workbook');
  await writeItem(model, 'hello.txt', 'Hello!\n');
  await model.answer('implement', say('FAILED: no spreadsheet writer is available'));
  await model.answer('implement', say('FAILED: no spreadsheet writer is available'));
  await model.answer('summary', say('Created hello.txt; the workbook step failed.'));
  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  await expect(messages.first().getByTestId('plan-tally')).toHaveText('Plan: 1/2 done, 1 failed');

  await sendRequest(page, 'Add a farewell');
  await researchAndPlan(model, 'Write farewell');
  await writeItem(model, 'bye.txt', 'Bye!\n');
  await model.answer('summary', say('Created bye.txt.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Created bye.txt.');
  await expect(page.getByTestId('status-line')).toHaveText('Finished');

  const [firstId] = await messages.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id') ?? ''));
  expect(await readFile(path.join(conversationDir(folder), 'runs', firstId!, 'plan.md'), 'utf8')).toMatch(/^- \[!\] 2\. Write workbook/m);
  await expect(messages.first().getByTestId('plan-tally')).toHaveText('Plan: 1/2 done, 1 failed');
  await expect(messages.last().getByTestId('plan-tally')).toHaveText('Plan: 1/1 done');

  await messages.first().getByRole('button', { name: 'View plan' }).click();
  const dialog = page.getByTestId('rpi-file-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('For the request “Add a greeting and a totals workbook”');
  const steps = dialog.getByTestId('plan-outcomes').locator('[data-status]');
  await expect(steps).toHaveCount(2);
  expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-status')))).toEqual(['done', 'failed']);
  await expect(steps.last()).toContainText('Failed: no spreadsheet writer is available');
  await page.screenshot({ path: 'e2e/screenshots/plan-history-1-earlier-plan.png' });

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await messages.last().getByRole('button', { name: 'View plan' }).click();
  await expect(page.getByTestId('plan-outcomes').locator('[data-status]')).toHaveCount(1);
  await expect(page.getByTestId('rpi-file-dialog')).toContainText('Write farewell');
  await expect(page.getByTestId('rpi-file-dialog')).not.toContainText('Write workbook');
});
