import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { RecentFolder } from '../engine/contract/index.js';

export interface MenuActions {
  openFolder(): void;
  openRecent(folder: string): void;
  showSettingsFolder(): void;
}

export interface MenuOptions {
  isMac: boolean;
  /** Reload and developer tools are offered only while developing. */
  isDev: boolean;
  recent: RecentFolder[];
  actions: MenuActions;
}

/** The application menu as data, so it can be checked without Electron. */
export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { isMac, isDev, actions } = options;
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
      { label: 'Open Recent', submenu: recentItems(options.recent, actions) },
      { type: 'separator' },
      { role: 'close', label: 'Close Window' },
      ...(isMac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(isDev ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'Show Settings Folder', click: () => actions.showSettingsFolder() },
      ...(isMac ? [] : [{ role: 'about' } as const]),
    ],
  };
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
    help,
  ];
}

export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)));
}

function recentItems(recent: RecentFolder[], actions: MenuActions): MenuItemConstructorOptions[] {
  if (recent.length === 0) return [{ label: 'No Recent Folders', enabled: false }];
  return recent.map((entry) => ({
    // '&' marks a mnemonic in menu labels on Windows and Linux; doubled it is shown as itself.
    label: entry.folder.replaceAll('&', '&&'),
    click: () => actions.openRecent(entry.folder),
  }));
}
