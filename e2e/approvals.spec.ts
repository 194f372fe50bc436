import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { checklistStatuses, openBench, planText, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';
import { conversationDir } from '../tests/support/conversationDir.js';

let bench: Bench;

test.afterEach(runTeardown);

test('approval cards: one approved, one edited, one that times out and is struck through', async ({ page }) => {
  bench = await openBench(page, { files: 'ask', commands: 'ask', reviewPlan: false, timeoutSeconds: 4 });
  const { model } = bench;
  await sendRequest(page, 'Write three greeting files');
  await model.answer('research', say('Nothing to read.'));
  await model.answer('plan', say(planText('Write hello', 'Write hi', 'Write bye')));

  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello!\n' } }] });
  const first = page.getByTestId('approval-card').nth(0);
  await expect(first).toHaveAttribute('data-status', 'pending');
  await expect(first.getByTestId('approval-path')).toContainText('hello.txt');
  await expect(first.getByTestId('approval-countdown')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/approval-1-pending.png' });
  await first.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(first).toHaveAttribute('data-status', 'approved');
  await expect(first.getByRole('button')).toHaveCount(0);
  await model.answer('implement', say('Wrote hello.txt.'));

  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: 'hi.txt', content: 'Hi\n' } }] });
  const second = page.getByTestId('approval-card').nth(1);
  await second.getByRole('button', { name: 'Edit', exact: true }).click();
  const editor = second.getByRole('textbox');
  await editor.fill('{ "path": "hi.txt", "content": ');
  await second.getByRole('button', { name: 'Approve with these arguments' }).click();
  await expect(second).toContainText('JSON');
  await editor.fill(JSON.stringify({ path: 'hi.txt', content: 'Hi there!\n' }));
  await second.getByRole('button', { name: 'Approve with these arguments' }).click();
  await expect(second).toHaveAttribute('data-status', 'edited');
  await expect(second.getByTestId('approval-edited-args')).toContainText('Hi there!');
  await model.answer('implement', say('Wrote hi.txt.'));

  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: 'bye.txt', content: 'Bye!\n' } }] });
  const third = page.getByTestId('approval-card').nth(2);
  await expect(third).toHaveAttribute('data-status', 'pending');
  // Nobody answers: the engine expires the request after its timeout and tells the model.
  const told = await model.next();
  expect(JSON.stringify(told.body.messages)).toContain('within 4 seconds, so it expired');
  await expect(third).toHaveAttribute('data-status', 'expired');
  await expect(third.locator('del')).toBeVisible();
  await expect(third).toContainText('Timed out');
  await expect(third.getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/approval-2-approved-edited-expired.png', fullPage: true });
  told.answer(say('FAILED: the write was not approved'));
  await model.answer('implement', say('FAILED: the write was not approved'));
  await model.answer('summary', say('Wrote hello.txt and hi.txt; bye.txt was not approved.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('bye.txt was not approved');

  expect(await readFile(path.join(bench.folder, 'hello.txt'), 'utf8')).toBe('Hello!\n');
  expect(await readFile(path.join(bench.folder, 'hi.txt'), 'utf8')).toBe('Hi there!\n');
  expect(existsSync(path.join(bench.folder, 'bye.txt'))).toBe(false);
});

test('the plan review gate: risky step flagged, plan edited, then approved', async ({ page }) => {
  bench = await openBench(page, { files: 'auto', commands: 'auto', reviewPlan: true, timeoutSeconds: 600 });
  const { model } = bench;
  await sendRequest(page, 'Tidy the folder');
  await model.answer('research', say('README.md and data/bank.csv.'));
  await model.answer('plan', say('# Execution Plan\n\n## Items\n- [ ] 1. Write notes — create notes.md\n- [ ] 2. Clean up — delete the data folder\n'));

  const card = page.getByTestId('plan-review-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText('1 step looks risky');
  await expect(card).toContainText('it deletes files or data');
  await page.screenshot({ path: 'e2e/screenshots/plan-gate-1-review.png' });

  await card.getByRole('button', { name: 'Edit plan' }).click();
  await card.getByRole('textbox').fill('# Execution Plan\n\n## Items\n- [ ] 1. Write notes — create notes.md\n');
  await page.screenshot({ path: 'e2e/screenshots/plan-gate-2-edited.png' });
  await card.getByRole('button', { name: 'Approve edited plan' }).click();

  const item = await model.next();
  expect(item.phase).toBe('implement');
  expect(await checklistStatuses(page)).toEqual(['running']);
  item.answer({ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Notes\n' } }] });
  await model.answer('implement', say('Wrote notes.md.'));
  await model.answer('summary', say('Wrote notes.md; the data folder was left alone.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('left alone');
  expect(existsSync(path.join(bench.folder, 'data', 'bank.csv'))).toBe(true);
  expect(await readFile(path.join(conversationDir(bench.folder), 'rpi', 'plan.md'), 'utf8')).not.toContain('Clean up');
});
