import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openBench, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;

test.afterEach(runTeardown);

const plan = [
  '# Execution Plan',
  '',
  '## Items',
  '- [ ] 1. Ledger — write ledger.txt — Check: `node ledger-check.js`',
  '- [ ] 2. Totals — write totals.txt — Check: `node totals-check.js`',
  '- [ ] 3. Notes — write notes.txt',
  '',
].join('\n');

const write = (file: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path: file, content } }] });

/** Each step's check mark as the plan shows it: its state and text. */
async function checkMarks(page: Page): Promise<string[]> {
  return page
    .getByTestId('plan-check')
    .evaluateAll((marks) => marks.map((mark) => `${mark.getAttribute('data-check')}: ${mark.textContent ?? ''}`));
}

// A step's check runs when it says it is done; a failure goes back to it with the output for up to two fix
// rounds; the folder's check command (set in Settings, kept outside the folder) runs for steps without one
// and once more over the whole change. The plan shows each step's check passed, failed or none.
test('a plan with checks: one passes after a fix round, one never passes, the folder check covers the rest', async ({ page }) => {
  bench = await openBench(page, { files: 'auto', commands: 'auto', reviewPlan: false });
  const { model, folder } = bench;
  await writeFile(path.join(folder, 'ledger-check.js'), "const ok = require('fs').readFileSync('ledger.txt', 'utf8').trim() === 'balanced';\nconsole.log(ok ? 'ledger ok' : 'LEDGER MISMATCH');\nprocess.exit(ok ? 0 : 1);\n");
  await writeFile(path.join(folder, 'totals-check.js'), "console.log('TOTALS DO NOT ADD UP');\nprocess.exit(2);\n");
  await writeFile(path.join(folder, 'count.js'), "require('fs').appendFileSync('checks.log', 'ran\\n');\n");

  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByLabel('Check command for this folder').fill('node count.js');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await sendRequest(page, 'Balance the ledger, add totals and notes');
  await model.answer('research', say('ledger-check.js and totals-check.js test the two files.'));
  await model.answer('plan', say(plan));
  await model.answer('implement', write('ledger.txt', 'off\n'));
  await model.answer('implement', say('Wrote the ledger.'));
  const fix = await model.next();
  expect(fix.phase).toBe('implement');
  expect(JSON.stringify(fix.body.messages)).toContain('LEDGER MISMATCH');
  fix.answer(write('ledger.txt', 'balanced\n'));
  await model.answer('implement', say('Fixed the ledger.'));
  for (const round of ['Wrote totals.', 'Fixed totals.', 'Fixed totals again.']) await model.answer('implement', say(round));
  await model.answer('implement', write('notes.txt', 'notes\n'));
  await model.answer('implement', say('Wrote the notes.'));
  await model.answer('summary', say('The ledger balances; the totals check kept failing.'));

  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  expect(await checkMarks(page)).toEqual([
    'passed: ✓Check passednode ledger-check.js',
    'failed: ✗Check failed: exited 2node totals-check.js',
    'passed: ✓Folder check passednode count.js',
  ]);
  await expect(page.getByTestId('plan-checklist').locator('[data-status]').nth(1)).toContainText('Failed: check `node totals-check.js` exited 2');
  await expect(page.getByTestId('final-check')).toHaveAttribute('data-check', 'passed');
  await page.getByTestId('plan-checklist').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/checks-1-plan-passed-and-failed.png' });
  expect(await readFile(path.join(folder, 'checks.log'), 'utf8')).toBe('ran\nran\n');

  // Kept with the run: a reloaded page shows the same marks.
  await page.reload();
  await expect(page.getByTestId('folder-name')).toBeVisible();
  expect(await checkMarks(page)).toEqual([
    'passed: ✓Check passednode ledger-check.js',
    'failed: ✗Check failed: exited 2node totals-check.js',
    'passed: ✓Folder check passednode count.js',
  ]);
});
