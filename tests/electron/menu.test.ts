import type { MenuItemConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ Menu: {} }));
const { menuTemplate } = await import('../../electron/menu.js');

type Item = MenuItemConstructorOptions;
const actions = { openFolder: vi.fn(), openRecent: vi.fn(), showSettingsFolder: vi.fn(), sendCommand: vi.fn() };
const template = (options: { isMac?: boolean; isDev?: boolean; recent?: { folder: string; name: string; lastOpened: number }[] } = {}) =>
  menuTemplate({ appName: 'RPI Workbench', isMac: false, isDev: false, recent: [], actions, ...options });
const submenuOf = (items: Item[], label: string) => items.find((item) => item.label === label)?.submenu as Item[];
const itemOf = (items: Item[], label: string) => items.find((item) => item.label === label);
const roles = (items: Item[]) => items.map((item) => item.role).filter(Boolean);
const click = (item: Item | undefined) => (item?.click as () => void)();
const everyItem = (items: Item[]): Item[] => items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? everyItem(item.submenu) : [])]);

beforeEach(() => vi.clearAllMocks());

describe('the application menu', () => {
  it('opens a folder with Ctrl/Cmd+O and lists recent folders', () => {
    const file = submenuOf(template({ recent: [{ folder: '/p/R&D', name: 'R&D', lastOpened: 1 }] }), 'File');
    const open = itemOf(file, 'Open Folder…');
    expect(open?.accelerator).toBe('CmdOrCtrl+O');
    const recent = submenuOf(file, 'Open Recent');
    expect(recent.map((item) => item.label)).toEqual(['/p/R&&D']);
    click(recent[0]);
    expect(actions.openRecent).toHaveBeenCalledWith('/p/R&D');
  });

  it('starts a new conversation with Ctrl/Cmd+N in File, carried out by the page', () => {
    const file = submenuOf(template(), 'File');
    const item = itemOf(file, 'New Conversation');
    expect(item?.accelerator).toBe('CmdOrCtrl+N');
    click(item);
    expect(actions.sendCommand).toHaveBeenCalledWith('new-conversation');
    expect(itemOf(submenuOf(template({ isMac: true }), 'File'), 'New Conversation')?.accelerator).toBe('CmdOrCtrl+N');
  });

  it('has the usual menus in the usual order, with the app menu first on macOS', () => {
    const names = (items: Item[]) => items.map((item) => item.label ?? item.role);
    expect(names(template())).toEqual(['File', 'editMenu', 'Run', 'View', 'windowMenu', 'help']);
    expect(names(template({ isMac: true }))).toEqual(['RPI Workbench', 'File', 'editMenu', 'Run', 'View', 'windowMenu', 'help']);
  });

  it('asks the page to open Settings with Ctrl+, in File, or Cmd+, in the app menu on macOS', () => {
    const settings = itemOf(submenuOf(template(), 'File'), 'Settings…');
    expect(settings?.accelerator).toBe('CmdOrCtrl+,');
    click(settings);
    expect(actions.sendCommand).toHaveBeenCalledWith('open-settings');

    const mac = template({ isMac: true });
    expect(itemOf(submenuOf(mac, 'File'), 'Settings…')).toBeUndefined();
    expect(itemOf(submenuOf(mac, 'RPI Workbench'), 'Settings…')?.accelerator).toBe('CmdOrCtrl+,');
    expect(roles(submenuOf(mac, 'RPI Workbench'))).toEqual(expect.arrayContaining(['about', 'hide', 'quit']));
    expect(roles(submenuOf(mac, 'File'))).not.toContain('quit');
  });

  it('stops the run with Ctrl/Cmd+. (Escape is the page’s) and focuses the composer with Ctrl/Cmd+L', () => {
    const run = submenuOf(template(), 'Run');
    expect(run.map((item) => [item.label, item.accelerator])).toEqual([
      ['Stop Run', 'CmdOrCtrl+.'],
      ['Focus Composer', 'CmdOrCtrl+L'],
    ]);
    click(itemOf(run, 'Stop Run'));
    click(itemOf(run, 'Focus Composer'));
    expect(actions.sendCommand.mock.calls).toEqual([['stop-run'], ['focus-composer']]);
  });

  it('never gives two items the same shortcut', () => {
    for (const isMac of [false, true]) {
      const accelerators = everyItem(template({ isMac, isDev: true })).flatMap((item) => (item.accelerator ? [item.accelerator] : []));
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
  });

  it('closes the window from File', () => {
    expect(itemOf(submenuOf(template(), 'File'), 'Close Window')?.role).toBe('close');
  });

  it('offers reload and developer tools only in development', () => {
    const view = (isDev: boolean) => roles(submenuOf(template({ isDev }), 'View'));
    expect(view(false)).not.toContain('reload');
    expect(view(false)).not.toContain('toggleDevTools');
    expect(view(true)).toEqual(expect.arrayContaining(['reload', 'toggleDevTools', 'zoomIn', 'togglefullscreen']));
  });

  it('says so when there are no recent folders', () => {
    const file = submenuOf(template({ isMac: true }), 'File');
    expect(submenuOf(file, 'Open Recent')).toEqual([{ label: 'No Recent Folders', enabled: false }]);
  });
});
