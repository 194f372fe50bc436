import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openBench, planText, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;

test.afterEach(runTeardown);

const ledger = [
  "import { readFileSync } from 'node:fs';",
  '',
  '/** One row of the bank statement. */',
  'export interface Entry {',
  '  date: string;',
  '  amount: number;',
  '}',
  '',
  'export function readLedger(file: string): Entry[] {',
  "  const [, ...rows] = readFileSync(file, 'utf8').trim().split('\\n');",
  '  return rows.map((row) => {',
  "    const [date = '', amount = '0'] = row.split(',');",
  '    return { date, amount: Number(amount) };',
  '  });',
  '}',
  '',
].join('\n');

test('diffs everywhere: an edit approval, the Changes view of the run, a file revert, and the undo dialog', async ({ page }) => {
  bench = await openBench(page, { files: 'ask', commands: 'ask', reviewPlan: false, timeoutSeconds: 600 });
  const { model, folder } = bench;
  await sendRequest(page, 'Document the ledger and add a reader');
  await model.answer('research', say('README.md and data/bank.csv.'));
  await model.answer('plan', say(planText('Document', 'Reader', 'Sample')));

  // 1. The edit's approval shows what README.md will become; an edit of the arguments shows the new diff.
  await model.answer('implement', {
    toolCalls: [{ name: 'edit_file', arguments: { path: 'README.md', old_text: 'Converts bank statements.', new_text: 'Converts bank statements\ninto a categorised ledger.' } }],
  });
  const card = page.getByTestId('approval-card').first();
  await expect(card.getByTestId('approval-diff').locator('[data-sign="+"]')).toHaveCount(2);
  await expect(card.getByTestId('approval-diff').locator('[data-sign="-"] .diff-text')).toHaveText(['Converts bank statements.']);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/changes-1-edit-approval.png' });
  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  await card.getByRole('textbox').fill(JSON.stringify({ path: 'README.md', old_text: 'Converts bank statements.', new_text: 'Converts bank statements\ninto a categorised, monthly ledger.' }));
  await expect(card.getByTestId('approval-diff').locator('[data-sign="+"] .diff-text').last()).toHaveText('into a categorised, monthly ledger.');
  await card.getByRole('button', { name: 'Approve with these arguments' }).click();
  await expect(card).toHaveAttribute('data-status', 'edited');
  await model.answer('implement', say('Documented.'));

  // A new file, approved with the rest of this request's file changes; then a command changes a file.
  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: 'src/ledger.ts', content: ledger } }] });
  const second = page.getByTestId('approval-card').nth(1);
  await expect(second.getByTestId('approval-diff')).toContainText('new file, 15 lines');
  await second.getByRole('button', { name: 'Approve file changes for the rest of this request' }).click();
  await model.answer('implement', say('Reader written.'));
  await model.answer('implement', { toolCalls: [{ name: 'run_command', arguments: { command: 'printf "2024-01-03,25\\n2024-01-04,-7\\n" >> data/bank.csv' } }] });
  await page.getByTestId('approval-card').nth(2).getByRole('button', { name: 'Approve', exact: true }).click();
  await model.answer('implement', say('Sample rows added.'));
  await model.answer('summary', say('Documented the ledger, added **src/ledger.ts** and two sample rows.'));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('two sample rows');

  // 2. The request says what it changed; its Changes view lists every file, shell-made changes included.
  const line = page.getByTestId('changes-line').locator('.changes-open');
  await expect(line).toHaveText('3 files changed (+19 −1)');
  await line.click();
  const view = page.getByTestId('changes-view');
  await expect(view.getByTestId('changes-file')).toHaveCount(3);
  await expect(view.getByTestId('changes-file')).toHaveText([/README\.md/, /data\/bank\.csv/, /src\/ledger\.ts/]);
  await view.getByRole('button', { name: 'Show all diffs' }).click();
  await expect(view.locator('[data-sign="+"]').first()).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/changes-2-changes-view.png' });

  // 3. Revert one file, after a confirmation showing the diff it undoes; the revert itself can be taken back.
  await view.locator('[data-testid="changes-file"][data-path="README.md"]').getByRole('button', { name: 'Revert this file' }).click();
  const confirm = page.getByTestId('revert-confirm');
  await expect(confirm.getByTestId('diff-view').locator('[data-sign="-"] .diff-text')).toHaveText(['Converts bank statements.']);
  await page.screenshot({ path: 'e2e/screenshots/changes-3-revert-confirm.png' });
  await confirm.getByRole('button', { name: 'Revert this file' }).click();
  await expect(page.getByTestId('changes-notice')).toContainText('Reverted README.md to before this request.');
  await expect(view.getByTestId('changes-file')).toHaveCount(2);
  await expect(line).toHaveText('2 files changed (+17 −0)');
  await page.screenshot({ path: 'e2e/screenshots/changes-4-reverted.png' });
  expect(await readFile(path.join(folder, 'README.md'), 'utf8')).toBe('# Ledger\n\nConverts bank statements.\n');
  await page.getByRole('button', { name: 'Close the changes' }).click();

  // 4. Undo shows the per-file diffs it will take back.
  const request = page.locator('[data-testid="message"][data-role="user"]');
  await request.hover();
  await request.getByTestId('undo-button').click();
  const undo = page.getByTestId('undo-confirm');
  await expect(undo.getByTestId('undo-file')).toHaveCount(3);
  await expect(undo.getByTestId('diff-view')).toHaveCount(2);
  await page.screenshot({ path: 'e2e/screenshots/changes-5-undo-dialog.png' });
  await undo.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByTestId('message')).toHaveCount(0);
  expect(await readFile(path.join(folder, 'data', 'bank.csv'), 'utf8')).toBe('date,amount\n2024-01-02,10\n');
});
