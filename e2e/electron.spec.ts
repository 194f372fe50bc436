import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { startFakeLlm, type FakeLlm } from '../tests/support/fakeLlm/index.js';
import { call, planText, say } from '../tests/support/rpiScript.js';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Where the Electron binary is, or why it cannot be used. `require('electron')` is not used for this:
 * from Electron 45 on it tries to download the binary when it is missing.
 */
function findElectron(): { path: string } | { missing: string } {
  if (!existsSync(path.join(root, 'dist', 'electron', 'main.cjs'))) {
    return { missing: 'the app is not built: run `npm run build` first' };
  }
  const pathFile = path.join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) {
    return { missing: 'the Electron binary is not installed (node_modules/electron/path.txt is missing; it cannot be downloaded here)' };
  }
  const binary = path.join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `the Electron binary is not installed (${binary} is missing)` };
}

const electronBinary = findElectron();
if ('missing' in electronBinary) console.log(`electron.spec.ts skipped: ${electronBinary.missing}`);

let app: ElectronApplication | undefined;
let llm: FakeLlm | undefined;
const temporary: string[] = [];

test.beforeEach(() => {
  test.skip('missing' in electronBinary, 'missing' in electronBinary ? electronBinary.missing : '');
});

test.afterEach(async () => {
  await app?.close();
  app = undefined;
  await llm?.close();
  llm = undefined;
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A project folder with a README, and the app launched on its own temp config dir (and on `folder` when given). */
async function launch(options: { openFolder: boolean }): Promise<{ page: Page; folder: string }> {
  if (!('path' in electronBinary)) throw new Error(electronBinary.missing);
  const configDir = await mkdtemp(path.join(os.tmpdir(), 'rpi-electron-config-'));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-electron-project-'));
  temporary.push(configDir, folder);
  await writeFile(path.join(folder, 'README.md'), '# Demo\n');
  app = await electron.launch({
    executablePath: electronBinary.path,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root, ...(options.openFolder ? [folder] : [])],
    env: { ...process.env, OPENAI_API_KEY: '', RPI_WORKBENCH_CONFIG_DIR: configDir },
  });
  const page = await app.firstWindow();
  await page.waitForFunction(() => window.workbench !== undefined);
  return { page, folder };
}

const windowTitle = () => app?.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle());

test('opens a folder in the desktop app and shows its name', async () => {
  const { page, folder } = await launch({ openFolder: false });

  const opened = await page.evaluate((folder) => window.workbench?.request['folders:open']({ folder }), folder);
  expect(opened).toMatchObject({ ok: true, value: { name: path.basename(folder) } });
  await expect.poll(windowTitle).toBe(`${path.basename(folder)} — RPI Workbench`);

  // The page did not ask through its own UI, so it learns of the folder on its next load.
  await page.reload();
  await expect(page.getByTestId('folder-name')).toHaveText(path.basename(folder));
  await page.screenshot({ path: 'e2e/screenshots/electron-open-folder.png' });
});

test('runs a request on a folder named on the command line, against the fake model', async () => {
  const model = await startFakeLlm({
    script: [
      // Slow enough for the title's running marker to be seen.
      say('## Request\nWrite hello.txt.', { delayMs: 300 }),
      say(planText('Greeting')),
      call('write_file', { path: 'hello.txt', content: 'hello\n' }),
      say('Wrote hello.txt.'),
      say('Added hello.txt with a greeting.'),
    ],
  });
  llm = model;
  const { page, folder } = await launch({ openFolder: true });
  await expect(page.getByTestId('folder-name')).toHaveText(path.basename(folder));

  const configured = await page.evaluate(
    (baseUrl) =>
      window.workbench?.request['settings:set']({ baseUrl, model: 'fake-model', approvals: { files: 'auto', reviewPlan: false } }),
    model.baseUrl,
  );
  expect(configured).toMatchObject({ ok: true });
  const sent = await page.evaluate(() => window.workbench?.request['session:send']({ prompt: 'Add a greeting file' }));
  expect(sent).toMatchObject({ ok: true });

  await expect.poll(windowTitle).toBe(`● ${path.basename(folder)} — RPI Workbench`);
  await expect(page.getByText('Added hello.txt with a greeting.')).toBeVisible();
  await expect.poll(windowTitle).toBe(`${path.basename(folder)} — RPI Workbench`);
  expect(await readFile(path.join(folder, 'hello.txt'), 'utf8')).toBe('hello\n');
  expect(model.scriptErrors).toEqual([]);
  await page.screenshot({ path: 'e2e/screenshots/electron-run.png' });
});
