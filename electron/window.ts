import path from 'node:path';
import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { windowBackground } from './osTheme.js';

export const productName = 'RPI Workbench';

/** Window settings for a workbench page: sandboxed, isolated, no Node, no webviews. */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 860,
    minWidth: 720,
    minHeight: 480,
    title: productName,
    show: false,
    backgroundColor: windowBackground(),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

/** A window for the renderer, not yet loaded. It shows once painted, so it never flashes white. */
export function createWindow(options: { preloadPath: string }): BrowserWindow {
  const window = new BrowserWindow(windowOptions(options.preloadPath));
  window.once('ready-to-show', () => window.show());
  // The title names the open folder (see windowTitle); the page's own <title> must not replace it.
  window.on('page-title-updated', (event) => event.preventDefault());
  return window;
}

/** "ledger — RPI Workbench", marked "● ledger — RPI Workbench" while a run is active. */
export function windowTitle(folder: string | null, running = false): string {
  if (!folder) return productName;
  return `${running ? '● ' : ''}${path.basename(folder)} — ${productName}`;
}
