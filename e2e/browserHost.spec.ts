import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { serveFolder, type ServedFolder } from './support/serveHost.js';
import { afterTest, runTeardown } from './support/teardown.js';

let folder: string;
let served: ServedFolder;

test.beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-e2e-project-'));
  afterTest(() => rm(folder, { recursive: true, force: true }));
  await writeFile(path.join(folder, 'README.md'), '# Demo\n');
  await writeFile(path.join(folder, 'bank.csv'), 'date,amount\n2024-01-02,10\n');
  await mkdir(path.join(folder, 'src'));
  await writeFile(path.join(folder, 'src', 'main.ts'), 'export {};\n');
  await writeFile(path.join(folder, '.gitignore'), 'build/\n');
  await mkdir(path.join(folder, 'build'));
  await writeFile(path.join(folder, 'build', 'out.js'), '');
  served = await serveFolder(folder);
  afterTest(() => served.stop());
});

test.afterEach(runTeardown);

test('shows the served folder and its file count', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toHaveText(path.basename(folder));
  // README.md, bank.csv, src/main.ts, .gitignore — build/ is ignored, .workbench/ never counted.
  await expect(page.getByTestId('file-count')).toHaveText('4 files');
  await expect(page.getByRole('heading', { name: 'No messages yet' })).toBeVisible();
  await expect(page.getByText('Choose a model in Settings to start.')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/browser-host-open-folder.png' });
  expect(pageErrors).toEqual([]);
  expect(await readFile(path.join(folder, '.workbench', '.gitignore'), 'utf8')).toBe('*\n');
});

test('the settings screen saves the model and refuses to store a key in the browser host', async ({ page }) => {
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toBeVisible();
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('API key')).toBeDisabled();
  await expect(dialog.getByText('set OPENAI_API_KEY in the environment')).toBeVisible();
  await dialog.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
  await dialog.getByLabel('Model').fill('qwen2.5-coder');
  await page.screenshot({ path: 'e2e/screenshots/browser-host-settings.png' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Choose a model in Settings to start.')).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('folder-name')).toBeVisible();
  await page.keyboard.press('Control+,');
  await expect(page.getByRole('dialog', { name: 'Settings' }).getByLabel('Model')).toHaveValue('qwen2.5-coder');
});

test('follows the OS colour scheme: light and dark', async ({ page }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toBeVisible();
  expect(await background()).toBe('rgb(247, 247, 248)');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe('rgb(22, 24, 28)');
  await page.screenshot({ path: 'e2e/screenshots/browser-host-dark.png' });
});

test('is usable from the keyboard alone', async ({ page }) => {
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Settings' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog.getByLabel('Base URL')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Focus goes back to what opened the dialog before the next key moves it on.
  await expect(page.getByRole('button', { name: 'Settings' })).toBeFocused();
  // Then the conversation list beside the chat (none yet in this folder: only its button), then the request box.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'New conversation' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Request')).toBeFocused();
});
