import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { DesktopCommand } from '../engine/contract/channels.js';
import type { RecentFolder } from '../engine/contract/index.js';

export interface MenuActions {
  openFolder(): void;
  openRecent(folder: string): void;
  showSettingsFolder(): void;
  /** Asks the focused window's page to carry out `command`. */
  sendCommand(command: DesktopCommand): void;
}

export interface MenuOptions {
  appName: string;
  isMac: boolean;
  /** Reload and developer tools are offered only while developing. */
  isDev: boolean;
  recent: RecentFolder[];
  actions: MenuActions;
}

type Item = MenuItemConstructorOptions;
const separator: Item = { type: 'separator' };

/** The application menu as data, so it can be checked without Electron. */
export function menuTemplate(options: MenuOptions): Item[] {
  const { isMac, actions } = options;
  const settings: Item = { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => actions.sendCommand('open-settings') };
  return [
    ...(isMac ? [appMenu(options.appName, settings)] : []),
    fileMenu(options, settings),
    { role: 'editMenu' },
    {
      label: 'Run',
      submenu: [
        // Escape belongs to the page (it closes dialogs and menus), so stopping has its own shortcut.
        { label: 'Stop Run', accelerator: 'CmdOrCtrl+.', click: () => actions.sendCommand('stop-run') },
        { label: 'Focus Composer', accelerator: 'CmdOrCtrl+L', click: () => actions.sendCommand('focus-composer') },
      ],
    },
    viewMenu(options.isDev),
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Show Settings Folder', click: () => actions.showSettingsFolder() },
        ...(isMac ? [] : [{ role: 'about' } as const]),
      ],
    },
  ];
}

export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)));
}

/** macOS keeps Settings… in the app menu, with the usual About, Services, Hide and Quit. */
function appMenu(appName: string, settings: Item): Item {
  return {
    label: appName,
    submenu: [
      { role: 'about' },
      separator,
      settings,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
}

function fileMenu(options: MenuOptions, settings: Item): Item {
  const { isMac, actions } = options;
  return {
    label: 'File',
    submenu: [
      { label: 'New Conversation', accelerator: 'CmdOrCtrl+N', click: () => actions.sendCommand('new-conversation') },
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
      { label: 'Open Recent', submenu: recentItems(options.recent, actions) },
      separator,
      ...(isMac ? [] : [settings, separator]),
      { role: 'close', label: 'Close Window' },
      ...(isMac ? [] : [separator, { role: 'quit' } as const]),
    ],
  };
}

function viewMenu(isDev: boolean): Item {
  return {
    label: 'View',
    submenu: [
      ...(isDev ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, separator] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
}

function recentItems(recent: RecentFolder[], actions: MenuActions): Item[] {
  if (recent.length === 0) return [{ label: 'No Recent Folders', enabled: false }];
  return recent.map((entry) => ({
    // '&' marks a mnemonic in menu labels on Windows and Linux; doubled it is shown as itself.
    label: entry.folder.replaceAll('&', '&&'),
    click: () => actions.openRecent(entry.folder),
  }));
}
