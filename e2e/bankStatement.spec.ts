import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { bankJobTurns, bankRequest, expenseCategories, readExpensesWorkbook, statementCsv, statementLines } from '../tests/support/bankStatementJob.js';
import { openBench, sendRequest, stepperStates } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

test.afterEach(runTeardown);

/** The phase of each scripted turn of the bank-statement job, in order. */
const phases = ['research', 'research', 'research', 'research', 'plan', 'implement', 'implement', 'summary'] as const;

test("the seed's bank-statement job through the browser host: table tools in the feed, a workbook with a sheet per category", async ({ page }) => {
  const { folder, model } = await openBench(page, { files: 'auto', commands: 'auto', reviewPlan: false, timeoutSeconds: 600 });
  await writeFile(path.join(folder, 'statement.csv'), statementCsv());
  await sendRequest(page, bankRequest);

  const turns = bankJobTurns();
  expect(turns).toHaveLength(phases.length);
  for (const [index, turn] of turns.entries()) {
    const phase = phases[index]!;
    const held = await model.next();
    expect(held.phase).toBe(phase);
    if (index === 4) {
      // Research is done: its table tools show their results as small tables in the activity feed.
      await expect(page.getByTestId('activity-table').first()).toBeVisible();
      await page.screenshot({ path: 'e2e/screenshots/tables-1-research-table-tools.png' });
    }
    held.answer(turn);
  }

  const answer = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(answer).toContainText('expenses.xlsx');
  expect(await stepperStates(page)).toEqual(['research:done', 'plan:done', 'implement:done', 'summary:done']);
  await page.screenshot({ path: 'e2e/screenshots/tables-2-workbook-written.png' });

  const workbook = await readExpensesWorkbook(path.join(folder, 'expenses.xlsx'));
  expect(workbook.sheetNames).toEqual([...expenseCategories, 'Summary']);
  expect(workbook.nonNumbers).toEqual([]);
  const expenses = statementLines().filter((line) => line.cents < 0);
  expect(workbook.rows).toHaveLength(expenses.length);
  expect(workbook.summaryTotal).toBe(expenses.reduce((sum, line) => sum + line.cents, 0));
});
