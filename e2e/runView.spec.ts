import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  checklistStatuses,
  openBench,
  researchAndPlan,
  say,
  sendRequest,
  stepperStates,
  summaryText,
  writeItem,
  type Bench,
} from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;
const autoApprovals = { files: 'auto', commands: 'auto', reviewPlan: false } as const;

test.afterEach(runTeardown);

// Each request is held by the stepped model until the test answers it, so the status line also says the
// run waits for the model server.
test('a full run, watched phase by phase: stepper, activity, a failed step, the streamed summary', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  const { model } = bench;
  await sendRequest(page, 'Add a greeting file and convert the statement');

  const research = await model.next();
  expect(research.phase).toBe('research');
  await expect(page.getByTestId('status-line')).toHaveText('Analyzing files… — waiting for the model server');
  expect(await stepperStates(page)).toEqual(['research:active', 'plan:pending', 'implement:pending', 'summary:pending']);
  await expect(page.getByTestId('composer')).toHaveAttribute('readonly', '');
  research.answer({ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] });
  await model.answer('research', say('The folder holds README.md and data/bank.csv.'));

  const plan = await model.next();
  expect(plan.phase).toBe('plan');
  await expect(page.getByTestId('status-line')).toHaveText('Planning approach… — waiting for the model server');
  await expect(page.getByTestId('activity-feed')).toContainText('list_files');
  await page.screenshot({ path: 'e2e/screenshots/run-1-research-done-planning.png' });
  plan.answer(say('# Execution Plan\n\n## Items\n- [ ] 1. Write greeting — create hello.txt\n- [ ] 2. Convert statement — write data/out.xlsx\n'));

  const firstItem = await model.next();
  expect(firstItem.phase).toBe('implement');
  await expect(page.getByTestId('status-line')).toHaveText('Working on step 1 of 2: Write greeting — waiting for the model server');
  expect(await checklistStatuses(page)).toEqual(['running', 'pending']);
  firstItem.answer({ toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello!\n' } }] });
  await model.answer('implement', say('Wrote hello.txt.'));

  await model.answer('implement', say('FAILED: no spreadsheet writer is available'));
  const retry = await model.next();
  await expect(page.getByTestId('status-line')).toHaveText('Working on step 2 of 2: Convert statement — waiting for the model server');
  await page.screenshot({ path: 'e2e/screenshots/run-2-implement.png' });
  retry.answer(say('FAILED: no spreadsheet writer is available'));

  const summary = await model.next();
  expect(summary.phase).toBe('summary');
  await expect(page.getByTestId('status-line')).toHaveText('Summarizing results… — waiting for the model server');
  expect(await checklistStatuses(page)).toEqual(['done', 'failed']);
  await expect(page.getByTestId('plan-checklist')).toContainText('no spreadsheet writer is available');
  summary.answer(say(summaryText, { delayMs: 250 }));
  await expect(page.getByTestId('streaming-summary')).toContainText('Summary');
  await page.screenshot({ path: 'e2e/screenshots/run-3-summary-streaming.png' });

  const answer = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(answer.getByRole('table')).toContainText('hello.txt');
  await expect(page.getByTestId('streaming-summary')).toHaveCount(0);
  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  expect(await stepperStates(page)).toEqual(['research:done', 'plan:done', 'implement:done', 'summary:done']);
  await expect(page.getByTestId('run-tokens')).toContainText('tokens');
  await expect(page.getByTestId('context-meter')).toContainText('32,000');
  await expect(page.getByTestId('file-count')).toHaveText('3 files'); // README.md, data/bank.csv and the new hello.txt
  await page.getByTestId('activity-feed').getByText('write_file').first().click();
  await page.screenshot({ path: 'e2e/screenshots/run-4-finished.png', fullPage: true });
  expect(await readFile(path.join(bench.folder, 'hello.txt'), 'utf8')).toBe('Hello!\n');

  await page.getByTestId('run-panel').getByRole('button', { name: 'View plan' }).click();
  await expect(page.getByTestId('rpi-file-dialog')).toContainText('Convert statement');
  await page.screenshot({ path: 'e2e/screenshots/run-5-plan-file.png' });
});

test('Stop cancels mid-implement; the banner resumes at the pending step without redoing research', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  const { model } = bench;
  await sendRequest(page, 'Add two greeting files');
  await researchAndPlan(model, 'Write hello', 'Write bye');
  await writeItem(model, 'hello.txt', 'Hello!\n');

  const held = await model.next();
  expect(held.phase).toBe('implement');
  await expect(page.getByTestId('status-line')).toHaveText('Working on step 2 of 2: Write bye — waiting for the model server');
  await page.getByTestId('stop-button').click();
  const banner = page.getByTestId('resume-banner');
  await expect(banner.getByRole('button', { name: 'Resume (step 2 of 2)' })).toBeVisible();
  await expect(page.getByTestId('run-error')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/run-6-cancelled-resume-banner.png' });

  await banner.getByRole('button', { name: 'Resume (step 2 of 2)' }).click();
  const resumed = await model.next();
  expect(resumed.phase).toBe('implement');
  expect(JSON.stringify(resumed.body.messages)).toContain('Write bye');
  resumed.answer({ toolCalls: [{ name: 'write_file', arguments: { path: 'bye.txt', content: 'Bye!\n' } }] });
  await model.answer('implement', say('Wrote bye.txt.'));
  await model.answer('summary', say('Wrote hello.txt and bye.txt.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Wrote hello.txt and bye.txt.');
  await expect(banner).toHaveCount(0);
  expect(await checklistStatuses(page)).toEqual(['done', 'done']);
  expect(existsSync(path.join(bench.folder, 'bye.txt'))).toBe(true);
});

test('a page reloaded mid-run rebuilds the run view and the waiting approval, then answers it', async ({ page }) => {
  bench = await openBench(page, { files: 'ask', commands: 'ask', reviewPlan: false, timeoutSeconds: 600 });
  const { model } = bench;
  await sendRequest(page, 'Add a greeting file');
  await researchAndPlan(model, 'Write hello', 'Check it');
  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello!\n' } }] });
  await expect(page.getByTestId('approval-card')).toHaveAttribute('data-status', 'pending');

  await page.reload();
  await expect(page.getByTestId('status-line')).toHaveText('Working on step 1 of 2: Write hello');
  expect(await stepperStates(page)).toEqual(['research:done', 'plan:done', 'implement:active', 'summary:pending']);
  expect(await checklistStatuses(page)).toEqual(['running', 'pending']);
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card.getByTestId('approval-path')).toContainText('hello.txt');
  await expect(page.getByTestId('run-elapsed')).toContainText('Elapsed');
  await page.screenshot({ path: 'e2e/screenshots/run-7-reloaded-mid-run.png' });

  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(card).toHaveAttribute('data-status', 'approved');
  await model.answer('implement', say('Wrote hello.txt.'));
  await model.answer('implement', say('Checked.'));
  await model.answer('summary', say('Created hello.txt.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Created hello.txt.');
  expect(await readFile(path.join(bench.folder, 'hello.txt'), 'utf8')).toBe('Hello!\n');
});
