import { expect, test } from '@playwright/test';
import { openBench, say, planText, sendRequest, summaryText, writeItem } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

test.afterEach(runTeardown);

test('Settings → Models gives Plan and the Summary their own models; the run view names the model of each phase', async ({ page }) => {
  const { model } = await openBench(page, { files: 'auto', commands: 'auto', reviewPlan: false });
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  const models = dialog.getByTestId('settings-models');
  await models.getByLabel('Plan', { exact: true }).selectOption('model');
  await models.getByLabel('Plan model').fill('deep-planner');
  await models.getByLabel('Summary', { exact: true }).selectOption('connection');
  await models.getByLabel('Summary base URL').fill(model.llm.baseUrl);
  await models.getByLabel('Summary model').fill('fake-model');
  await models.getByLabel('Summary context window (tokens)').fill('16384');
  await models.getByTestId('test-connection-summary').click();
  const tested = models.getByTestId('phase-model-summary').getByTestId('connection-result');
  await expect(tested).toHaveAttribute('data-ok', 'true');
  await expect(tested).toContainText('“fake-model” is among them.');
  await models.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/settings-3-models.png' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);

  await sendRequest(page, 'Add a greeting');
  await model.answer('research', say('The folder holds README.md and data/bank.csv.'));
  const planning = await model.next();
  expect(planning.phase).toBe('plan');
  expect(planning.body.model).toBe('deep-planner');
  planning.answer(say(planText('Greet')));
  await writeItem(model, 'hello.txt', 'hello\n');
  const summarising = await model.next();
  expect(summarising.phase).toBe('summary');
  summarising.answer(say(summaryText));
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Created');

  const stepper = page.getByTestId('phase-stepper');
  await expect(stepper.locator('[data-phase="research"] [data-testid="phase-model"]')).toHaveText('fake-model');
  await expect(stepper.locator('[data-phase="plan"] [data-testid="phase-model"]')).toHaveText('deep-planner');
  await expect(stepper.locator('[data-phase="implement"] [data-testid="phase-model"]')).toHaveText('fake-model');
  await expect(stepper.locator('[data-phase="summary"] [data-testid="phase-model"]')).toHaveText('fake-model');
  await page.screenshot({ path: 'e2e/screenshots/run-models-per-phase.png' });

  // After a reload the page reads the models back from the run kept on disk.
  await page.reload();
  await expect(page.getByTestId('phase-stepper').locator('[data-phase="plan"] [data-testid="phase-model"]')).toHaveText('deep-planner');
});
