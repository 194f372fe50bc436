import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';

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
const temporary: string[] = [];

test.afterEach(async () => {
  await app?.close();
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

test('opens a folder in the desktop app and shows its name', async () => {
  test.skip('missing' in electronBinary, 'missing' in electronBinary ? electronBinary.missing : '');
  if (!('path' in electronBinary)) return;
  const configDir = await mkdtemp(path.join(os.tmpdir(), 'rpi-electron-config-'));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-electron-project-'));
  temporary.push(configDir, folder);
  await writeFile(path.join(folder, 'README.md'), '# Demo\n');

  app = await electron.launch({
    executablePath: electronBinary.path,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
    env: { ...process.env, RPI_WORKBENCH_CONFIG_DIR: configDir },
  });
  const page = await app.firstWindow();
  await page.waitForFunction(() => window.workbench !== undefined);

  const opened = await page.evaluate((folder) => window.workbench?.request['folders:open']({ folder }), folder);
  expect(opened).toMatchObject({ ok: true, value: { name: path.basename(folder) } });
  const title = () => app?.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle());
  await expect.poll(title).toContain(path.basename(folder));

  // The page did not ask through its own UI, so it learns of the folder on its next load.
  await page.reload();
  await expect(page.getByTestId('folder-name')).toHaveText(path.basename(folder));
  await page.screenshot({ path: 'e2e/screenshots/electron-open-folder.png' });
});
