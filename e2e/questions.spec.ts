import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openBench, planText, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;

test.afterEach(runTeardown);

test('a question of the model before planning: a card with its choices, still there after a reload, answered with Enter', async ({ page }) => {
  bench = await openBench(page, { files: 'auto', commands: 'auto', reviewPlan: false, timeoutSeconds: 600 });
  const { model } = bench;
  await sendRequest(page, 'Make a report of my bank statement');
  const question = 'Which format should the report use?\nThe folder has <b>no</b> earlier report to copy.';
  await model.answer('research', { toolCalls: [{ name: 'ask_user', arguments: { question, choices: ['CSV', 'XLSX'], default: 'XLSX' } }] });

  const card = page.getByTestId('question-card');
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card.getByTestId('question-text')).toHaveText(question);
  await expect(card.locator('b')).toHaveCount(0);
  await expect(card.getByRole('group', { name: 'Choices' }).getByRole('button')).toHaveText(['CSV', 'XLSX']);
  await page.screenshot({ path: 'e2e/screenshots/question-card.png' });

  await page.reload();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await card.getByLabel('Your answer').fill('XLSX, one sheet per month');
  await card.getByLabel('Your answer').press('Enter');
  await expect(card).toHaveAttribute('data-status', 'answered');
  await expect(card.getByRole('status')).toHaveText('You answered: XLSX, one sheet per month');
  await expect(card.getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/question-card-answered.png' });

  const told = await model.next();
  expect(JSON.stringify(told.body.messages)).toContain('The user answered: XLSX, one sheet per month');
  told.answer(say('Findings: a workbook, one sheet per month.'));
  await model.answer('plan', say(planText('Report')));
  await model.answer('implement', say('Report written.'));
  await model.answer('summary', say('Wrote the report as a workbook.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Wrote the report as a workbook.');

  const research = await readFile(path.join(bench.folder, '.workbench', 'rpi', 'research.md'), 'utf8');
  expect(research).toContain('## Answers from the user');
  expect(research).toContain('Answer: The user answered: XLSX, one sheet per month');
});
