import { expect, test } from '@playwright/test';
import type { ScriptedTurn } from '../tests/support/fakeLlm/index.js';
import { openBench, planText, say, sendRequest, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;
const autoApprovals = { files: 'auto', commands: 'auto', reviewPlan: false } as const;

test.afterEach(runTeardown);

/** A turn whose server reports these counts and, OpenRouter-style, what the call cost. */
function priced(turn: ScriptedTurn, promptTokens: number, cachedTokens: number, completionTokens: number, costUsd: number): ScriptedTurn {
  return { ...turn, usage: { promptTokens, cachedTokens, completionTokens, costUsd }, usageShape: 'openrouter' };
}

// gpt-4.1-mini, served by the fake server on 127.0.0.1: the catalog's price is never assumed for a local
// server, so a call costs what the server reports (OpenRouter's `cost`), and a call without it is unpriced.
test('the run panel shows each step’s tokens in (cached), out and cost, and the chat the request’s total, also after a reload', async ({ page }) => {
  bench = await openBench(page, autoApprovals, { model: 'gpt-4.1-mini' });
  const { model } = bench;
  await sendRequest(page, 'Add a greeting and a farewell');

  await model.answer('research', priced(say('The folder holds README.md and data/bank.csv.'), 20_000, 15_000, 1_500, 0.011));
  await model.answer('plan', priced(say(planText('Write greeting', 'Write farewell')), 18_200, 17_100, 1_000, 0.012));
  await model.answer('implement', priced({ toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello!\n' } }] }, 10_000, 9_000, 800, 0.005));
  await model.answer('implement', priced(say('Wrote hello.txt.'), 10_000, 8_000, 600, 0.003));
  // Live, before the run goes on: the steps so far and the request's total.
  const rows = page.getByTestId('step-spend');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('[data-testid="message"][data-role="user"]').getByTestId('request-spend')).toHaveText('58,200 tokens in (49,100 cached) · 3,900 out · $0.031');

  await model.answer('implement', { ...say('Wrote bye.txt.'), usage: { promptTokens: 9_000, completionTokens: 300 } });
  await model.answer('summary', priced(say('Created hello.txt and bye.txt.'), 4_000, 0, 200, 0.002));
  await expect(page.getByTestId('status-line')).toHaveText('Finished');

  const expected = [
    ['research', 'Research', '20,000 tokens in (15,000 cached) · 1,500 out · $0.011'],
    ['plan', 'Plan', '18,200 tokens in (17,100 cached) · 1,000 out · $0.012'],
    ['item-0', 'Step 1: Write greeting', '20,000 tokens in (17,000 cached) · 1,400 out · $0.008'],
    ['item-1', 'Step 2: Write farewell', '9,000 tokens in · 300 out'],
    ['summary', 'Summary', '4,000 tokens in · 200 out · $0.002'],
  ];
  const total = '71,200 tokens in (49,100 cached) · 4,400 out · ≥ $0.033, 1 step unpriced';
  const shown = () =>
    rows.evaluateAll((entries) => entries.map((entry) => [entry.getAttribute('data-step'), entry.querySelector('dt')?.textContent ?? '', entry.querySelector('dd')?.textContent ?? '']));
  await expect(rows).toHaveCount(5);
  expect(await shown()).toEqual(expected);
  await expect(page.getByTestId('run-spend-total').locator('dd')).toHaveText(total);
  const request = page.locator('[data-testid="message"][data-role="user"]').getByTestId('request-spend');
  await expect(request).toHaveText(total);
  await page.getByTestId('run-spend').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/run-spend-1-per-step.png' });

  await page.reload();
  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  await expect(rows).toHaveCount(5);
  expect(await shown()).toEqual(expected);
  await expect(request).toHaveText(total);
});
