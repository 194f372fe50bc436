import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { checklistStatuses, openBench, say, sendRequest, writeItem, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;
const autoApprovals = { files: 'auto', commands: 'auto', reviewPlan: false } as const;

test.afterEach(runTeardown);

const rootRules = 'Write every text file with a trailing newline.';
const dataRules = 'Files under data/ are comma-separated, UTF-8, with a header row.';
const plan = '# Execution Plan\n\n## Items\n- [ ] 1. Write greeting — create hello.txt\n- [ ] 2. Write totals — create data/totals.csv from data/bank.csv\n';

// The project's AGENTS.md files reach every phase and the run panel names them; a step that failed is
// tried again from the finished run, told why it failed, and the step that was done is left alone.
test('project instructions named in the run view; Retry failed steps tries only the failed step again', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  const { model, folder } = bench;
  await writeFile(path.join(folder, 'AGENTS.md'), `# Conventions\n\n${rootRules}\n`);
  await mkdir(path.join(folder, 'data'), { recursive: true });
  await writeFile(path.join(folder, 'data', 'AGENTS.md'), `${dataRules}\n`);
  await sendRequest(page, 'Add a greeting and a totals file');

  const research = await model.next();
  expect(research.phase).toBe('research');
  expect(JSON.stringify(research.body.messages)).toContain(rootRules);
  research.answer(say('The folder holds README.md and data/bank.csv.'));
  const planning = await model.next();
  expect(JSON.stringify(planning.body.messages)).toContain(rootRules);
  planning.answer(say(plan));

  await writeItem(model, 'hello.txt', 'Hello!\n');
  const totals = await model.next();
  expect(totals.phase).toBe('implement');
  // The step works under data/, so it is given data/AGENTS.md as well as the root's.
  expect(JSON.stringify(totals.body.messages)).toContain(dataRules);
  totals.answer(say('FAILED: data/bank.csv has no amount column I can sum'));
  await model.answer('implement', say('FAILED: data/bank.csv has no amount column I can sum'));
  await model.answer('summary', say('Created hello.txt; the totals step failed.'));

  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  await expect(page.getByTestId('instruction-files')).toHaveText('Project instructions: AGENTS.md, data/AGENTS.md');
  expect(await checklistStatuses(page)).toEqual(['done', 'failed']);
  const retry = page.getByTestId('retry-failed');
  await expect(retry).toHaveText('Retry failed steps (1)');
  await page.screenshot({ path: 'e2e/screenshots/instructions-1-run-view.png' });
  await retry.focus();
  await page.screenshot({ path: 'e2e/screenshots/retry-1-failed-steps.png' });

  await retry.click();
  const again = await model.next();
  expect(again.phase).toBe('implement');
  const sent = JSON.stringify(again.body.messages);
  expect(sent).toContain('Write totals');
  expect(sent).toContain('no amount column I can sum'); // the earlier failure reason
  expect(sent).toContain(dataRules);
  await expect(page.getByTestId('status-line')).toHaveText('Working on step 2 of 2: Write totals — waiting for the model server');
  again.answer({ toolCalls: [{ name: 'write_file', arguments: { path: 'data/totals.csv', content: 'total\n10\n' } }] });
  await model.answer('implement', say('Wrote data/totals.csv.'));
  await model.answer('summary', say('Created hello.txt and data/totals.csv.'));

  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Created hello.txt and data/totals.csv.');
  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  expect(await checklistStatuses(page)).toEqual(['done', 'done']);
  await expect(retry).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/retry-2-all-done.png' });
  expect(await readFile(path.join(folder, 'data', 'totals.csv'), 'utf8')).toBe('total\n10\n');
  expect(await readFile(path.join(folder, 'hello.txt'), 'utf8')).toBe('Hello!\n');
});
