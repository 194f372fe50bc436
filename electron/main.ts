import './withdrawCredentialsFirst.js';
import path from 'node:path';
import { app, BrowserWindow, session, shell } from 'electron';
import type { DesktopCommand } from '../engine/contract/channels.js';
import { AllowedCommands, configDir, FolderChecks, PromptCacheKeys, RecentFolders, SettingsStore, setCommandLauncher, userMcp } from '../engine/index.js';
import { registerAppScheme, serveRenderer } from './appProtocol.js';
import { denyAllPermissions, guardWebContents } from './contentGuards.js';
import { applyDevCsp } from './csp.js';
import { FolderWindows } from './folderWindows.js';
import { bindIpc } from './ipcBinding.js';
import { installMenu } from './menu.js';
import { trustedOrigins } from './origins.js';
import { followOsTheme } from './osTheme.js';
import { safeStorageCipher } from './safeStorageCipher.js';
import { utilityLauncher } from './utilityLauncher.js';

// A packaged app never trusts a page URL from the environment: it would get the bridge.
const origins = trustedOrigins(app.isPackaged ? undefined : process.env.VITE_DEV_SERVER_URL);
const isMac = process.platform === 'darwin';

registerAppScheme();
app.enableSandbox();
// One config directory for the app and the CLI (settings, recent folders); the lock below is per directory.
// Chromium's own caches and storage go to a subfolder, so the directory stays readable.
app.setPath('userData', configDir());
app.setPath('sessionData', path.join(configDir(), 'electron-session'));

if (app.requestSingleInstanceLock()) {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origins.isTrusted));
  app.on('window-all-closed', () => {
    if (!isMac) app.quit();
  });
  app.whenReady().then(start).catch((error: unknown) => {
    console.error('RPI Workbench could not start:', error);
    app.exit(1);
  });
} else {
  app.quit();
}

async function start(): Promise<void> {
  // Windows shows notifications only for the app id its Start menu shortcut carries (electron-builder.yml's appId).
  if (process.platform === 'win32') app.setAppUserModelId(app.isPackaged ? 'dev.rpiworkbench.app' : process.execPath);
  followOsTheme();
  denyAllPermissions(session.defaultSession);
  if (origins.devOrigin) applyDevCsp(session.defaultSession, origins.devOrigin);
  serveRenderer(path.join(app.getAppPath(), 'dist', 'renderer'));
  setCommandLauncher(utilityLauncher(path.join(app.getAppPath(), 'dist', 'electron', 'commandLauncher.cjs')));

  const dir = configDir();
  const recent = new RecentFolders(dir);
  const cipher = safeStorageCipher();
  const windows = new FolderWindows({
    preloadPath: path.join(app.getAppPath(), 'dist', 'electron', 'preload.cjs'),
    entryUrl: origins.entryUrl,
    settings: new SettingsStore({ configDir: dir, cipher }),
    recent,
    allowedCommands: new AllowedCommands(dir),
    folderChecks: new FolderChecks(dir),
    promptCacheKeys: new PromptCacheKeys(dir),
    mcp: userMcp(dir, cipher),
    cipher,
    onRecentChanged: () => void refreshMenu(),
  });
  const report = (error: unknown) => console.error(error);
  const actions = {
    openFolder: () => windows.pickAndOpen().catch(report),
    openRecent: (folder: string) => windows.openFolder(folder).catch(report),
    showSettingsFolder: () => void shell.openPath(dir),
    sendCommand: (command: DesktopCommand) => windows.sendCommand(command),
  };
  const refreshMenu = () =>
    recent
      .list()
      .then((list) => installMenu({ appName: app.name, isMac, isDev: origins.devOrigin !== null, recent: list, actions }))
      .catch(report);

  bindIpc({ dispatchFor: (contents) => windows.dispatchFor(contents), isTrusted: origins.isTrusted });
  await refreshMenu();
  closeFoldersBeforeQuit(windows);
  app.on('second-instance', (_event, argv, workingDirectory) => {
    windows.focusOrOpen(folderArgument(argv, workingDirectory)).catch(report);
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) windows.openWindow().catch(report);
  });
  await windows.openWindow(folderArgument(process.argv, process.cwd()));
}

/** Quitting waits until every folder's lock is released, so the next launch finds them free. */
function closeFoldersBeforeQuit(windows: FolderWindows): void {
  let released = false;
  app.on('will-quit', (event) => {
    if (released) return;
    event.preventDefault();
    windows
      .closeAll()
      .catch((error: unknown) => console.error('Could not release every folder:', error))
      .finally(() => {
        released = true;
        app.quit();
      });
  });
}

/**
 * A folder named on the command line (`rpi-workbench ~/project`). Switches are skipped, and so is the
 * app path that `electron <app>` takes before it when unpackaged.
 */
function folderArgument(argv: string[], workingDirectory: string): string | undefined {
  const positional = argv.slice(1).filter((arg) => !arg.startsWith('-'));
  const folder = positional[app.isPackaged ? 0 : 1];
  return folder ? path.resolve(workingDirectory, folder) : undefined;
}
