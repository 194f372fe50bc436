import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openWorkbench } from '../engine/index.js';
import { startFakeLlm } from '../tests/support/fakeLlm/index.js';
import { betaRequest, interleavedConversations, workbenchDriver } from '../tests/support/interleavedConversations.js';
import { autoApprovals, fakeModelOptions } from '../tests/support/rpiScript.js';
import { serveFolder } from './support/serveHost.js';
import { afterTest, runTeardown } from './support/teardown.js';

test.afterEach(runTeardown);

test('undo in one of two conversations names the file the other changed since, keeps it unless told, and can be taken back', async ({ page }) => {
  // The folder is made in process: Alpha, then Beta, then Alpha again, each a whole run on the scripted model.
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-e2e-undo-'));
  afterTest(() => rm(folder, { recursive: true, force: true }));
  const llm = await startFakeLlm();
  afterTest(() => llm.close());
  const workbench = await openWorkbench(folder, fakeModelOptions(llm));
  const { beta } = await interleavedConversations(workbenchDriver(workbench), llm).finally(() => workbench.close());
  const text = (file: string) => readFile(path.join(folder, file), 'utf8');

  const served = await serveFolder(folder, {}, { baseUrl: llm.baseUrl, model: 'fake-model', contextWindow: 32_000, toolMode: 'native', approvals: autoApprovals });
  afterTest(() => served.stop());
  await page.setViewportSize({ width: 1360, height: 860 });
  await page.goto(served.url);
  // The most recent conversation is shown: Alpha, with its two requests.
  const requests = page.locator('[data-testid="message"][data-role="user"]');
  await expect(requests).toHaveCount(2);

  await requests.first().hover();
  await requests.first().getByTestId('undo-button').click();
  const dialog = page.getByTestId('undo-confirm');
  const conflict = dialog.getByTestId('undo-conflict');
  await expect(conflict).toHaveCount(1);
  await expect(conflict).toHaveAttribute('data-path', 'shared.txt');
  await expect(conflict).toContainText(`changed since by ${betaRequest} in ${betaRequest}`);
  await expect(conflict.locator('strong')).toHaveAttribute('title', beta.conversationId);
  await expect(conflict.getByRole('radio', { name: 'Keep the other conversation’s version' })).toBeChecked();
  await expect(dialog.getByTestId('undo-file')).toHaveCount(4);
  await expect(dialog.getByText('Loading the diff…')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/undo-conversations-1-conflict.png' });

  await conflict.getByRole('radio', { name: 'Take this conversation’s' }).check();
  await expect(conflict).toHaveAttribute('data-choice', 'take');
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();

  await expect(page.getByTestId('undo-confirm')).toHaveCount(0);
  await expect(page.getByTestId('message')).toHaveCount(0);
  const notice = page.getByTestId('undone-notice');
  await expect(notice).toContainText('Undone: 4 files put back.');
  await page.screenshot({ path: 'e2e/screenshots/undo-conversations-2-undone.png' });
  expect(await text('shared.txt')).toBe('base\n');
  expect(await text('mine.txt')).toBe('mine base\n');
  expect(await text('other.txt')).toBe('beta other\n');
  expect(await text('untouched.txt')).toBe('untouched\n');

  await notice.getByRole('button', { name: 'Take back' }).click();
  await expect(notice).toContainText('The undo’s file changes were taken back');
  expect(await text('shared.txt')).toBe('beta\n');
  expect(await text('mine.txt')).toBe('alpha mine again\n');
});
