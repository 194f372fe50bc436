import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { folderHashes, openBench, researchAndPlan, say, sendRequest, writeItem, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;
const autoApprovals = { files: 'auto', commands: 'auto', reviewPlan: false } as const;

test.afterEach(runTeardown);

/** One whole run that creates hello.txt and rewrites README.md. */
async function runOnce(page: Page, request: string): Promise<void> {
  await sendRequest(page, request);
  await researchAndPlan(bench.model, 'Write hello', 'Rewrite readme');
  await writeItem(bench.model, 'hello.txt', 'Hello!\n');
  await writeItem(bench.model, 'README.md', '# Ledger, rewritten\n');
  await bench.model.answer('summary', say('Created hello.txt and rewrote README.md.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('rewrote README.md');
}

test('undo lists the files, restores the folder exactly and removes the messages', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  const before = await folderHashes(bench.folder);
  await runOnce(page, 'Greet and rewrite the readme');
  expect(await folderHashes(bench.folder)).not.toEqual(before);

  const request = page.locator('[data-testid="message"][data-role="user"]');
  await request.hover();
  await request.getByTestId('undo-button').click();
  const dialog = page.getByTestId('undo-confirm');
  await expect(dialog.getByTestId('undo-file')).toHaveCount(2);
  await expect(dialog.locator('[data-testid="undo-file"][data-change="removed"]')).toContainText('hello.txt');
  await expect(dialog.locator('[data-testid="undo-file"][data-change="restored"]')).toContainText('README.md');
  await page.screenshot({ path: 'e2e/screenshots/undo-1-confirm.png' });
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();

  await expect(page.getByTestId('message')).toHaveCount(0);
  await expect(page.getByTestId('plan-checklist')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/undo-2-restored.png' });
  expect(await folderHashes(bench.folder)).toEqual(before);
});

test('regenerate puts the folder back and sends the same request again', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  await runOnce(page, 'Greet and rewrite the readme');
  await writeFile(path.join(bench.folder, 'hello.txt'), 'changed by hand\n');

  const answer = page.locator('[data-testid="message"][data-role="assistant"]');
  await answer.hover();
  await answer.getByTestId('regenerate-button').click();
  const dialog = page.getByTestId('undo-confirm');
  await expect(dialog).toContainText('Greet and rewrite the readme');
  await page.screenshot({ path: 'e2e/screenshots/regenerate-1-confirm.png' });
  await dialog.getByRole('button', { name: 'Regenerate', exact: true }).click();

  const research = await bench.model.next();
  expect(research.phase).toBe('research');
  expect(JSON.stringify(research.body.messages)).toContain('Greet and rewrite the readme');
  await expect(page.getByTestId('message')).toHaveCount(1);
  await page.screenshot({ path: 'e2e/screenshots/regenerate-2-running-again.png' });
  research.answer(say('README.md and data/bank.csv.'));
  await bench.model.answer('plan', say('# Execution Plan\n\n## Items\n- [ ] 1. Write hello — create hello.txt\n'));
  await writeItem(bench.model, 'hello.txt', 'Hello again!\n');
  await bench.model.answer('summary', say('Created hello.txt again.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Created hello.txt again.');
  await expect(page.getByTestId('message')).toHaveCount(2);
  // The first run's README rewrite was undone, and the second run left it alone.
  expect(await readFile(path.join(bench.folder, 'README.md'), 'utf8')).toBe('# Ledger\n\nConverts bank statements.\n');
  expect(await readFile(path.join(bench.folder, 'hello.txt'), 'utf8')).toBe('Hello again!\n');
});
