import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openBench, planText, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;

test.afterEach(runTeardown);

const rows = (page: Page) => page.getByTestId('conversation');
const row = (page: Page, title: string) => rows(page).filter({ has: page.getByTestId('conversation-title').getByText(title, { exact: true }) });
const answers = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');
const requests = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');

test('conversations: the list, a new one, a switch during a run with its approval shown where the user is, a second run refused with a switch', async ({ page }) => {
  bench = await openBench(page, { files: 'ask', commands: 'ask', reviewPlan: false, timeoutSeconds: 600 });
  const { model } = bench;
  await expect(page.getByTestId('conversation-list')).toContainText('No conversations yet');

  // The first conversation: one whole request.
  await sendRequest(page, 'Summarise the bank statement');
  await model.answer('research', say('A two-column statement.'));
  await model.answer('plan', say(planText()));
  await model.answer('summary', say('The statement has one line.'));
  await expect(answers(page)).toContainText(['The statement has one line.']);
  await expect(rows(page).getByTestId('conversation-title')).toHaveText(['Summarise the bank statement']);

  // A new conversation, with the button: the chat is empty, the list has both, the new one shown.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(rows(page).getByTestId('conversation-title')).toHaveText(['New conversation', 'Summarise the bank statement']);
  await expect(requests(page)).toHaveCount(0);
  await expect(page.getByText('No messages yet')).toBeVisible();
  await expect(row(page, 'New conversation').getByRole('button', { name: /New conversation/ }).first()).toHaveAttribute('aria-current', 'true');
  await page.screenshot({ path: 'e2e/screenshots/conversations-new.png' });

  // Its request runs up to an approval.
  await sendRequest(page, 'Write the monthly report');
  await model.answer('research', say('The statement is in data/bank.csv.'));
  await model.answer('plan', say(planText('Write report.csv')));
  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: 'report.csv', content: 'month,total\n2024-01,10\n' } }] });
  await expect(page.getByTestId('approval-card')).toHaveAttribute('data-status', 'pending');
  const running = row(page, 'Write the monthly report');
  await expect(running.getByTestId('conversation-running')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/conversations-list.png' });

  // Switch to the first one during the run: its own chat, the other run marked, its approval still here.
  await row(page, 'Summarise the bank statement').getByTestId('conversation-title').click();
  await expect(requests(page)).toContainText(['Summarise the bank statement']);
  await expect(running.getByTestId('conversation-running')).toBeVisible();
  // The run view shows this conversation's own last run, finished, not the one going elsewhere.
  await expect(page.getByTestId('run-panel').getByTestId('status-line')).toHaveText('Finished');
  const waiting = page.getByTestId('waiting-elsewhere');
  await expect(waiting.getByTestId('waiting-elsewhere-title')).toHaveText('Write the monthly report');
  await expect(waiting.getByTestId('approval-card')).toHaveAttribute('data-status', 'pending');
  await expect(waiting.getByTestId('approval-path')).toContainText('report.csv');
  await page.screenshot({ path: 'e2e/screenshots/conversations-switch-during-run.png' });

  // A request here is refused while the other run goes on, with a way to it.
  await sendRequest(page, 'Also check the totals');
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText('“Write the monthly report” is running in this folder, and a folder runs one request at a time, so nothing was sent');
  await page.screenshot({ path: 'e2e/screenshots/conversations-run-refused.png' });
  await refusal.getByRole('button', { name: 'Switch to “Write the monthly report”' }).click();
  await expect(requests(page)).toContainText(['Write the monthly report']);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('waiting-elsewhere')).toHaveCount(0);

  // Approved from its own conversation, the run finishes; the mark goes.
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve', exact: true }).click();
  await model.answer('implement', say('Wrote report.csv.'));
  await model.answer('summary', say('Wrote **report.csv**.'));
  await expect(answers(page)).toContainText(['Wrote report.csv.']);
  await expect(page.getByTestId('conversation-running')).toHaveCount(0);
  expect(await readFile(path.join(bench.folder, 'report.csv'), 'utf8')).toBe('month,total\n2024-01,10\n');

  // Alt+N starts another; opening the folder again (a reload) shows the most recent one: that new one.
  await page.getByTestId('composer').press('Alt+n');
  await expect(rows(page)).toHaveCount(3);
  await expect(requests(page)).toHaveCount(0);
  // The list from the keyboard: a row's switch, then its Rename and Delete, then the next row's switch.
  await page.getByRole('button', { name: 'New conversation', exact: true }).focus();
  for (const name of [/^New conversation/, 'Rename “New conversation”', 'Delete “New conversation”', /^Write the monthly report/]) {
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus')).toHaveAccessibleName(name);
  }
  await page.keyboard.press('Enter');
  await expect(requests(page)).toContainText(['Write the monthly report']);
  await page.reload();
  await expect(rows(page).getByTestId('conversation-title')).toHaveText(['New conversation', 'Write the monthly report', 'Summarise the bank statement']);
  await expect(row(page, 'New conversation').locator('[aria-current="true"]')).toHaveCount(1);
});
