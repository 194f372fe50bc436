import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ Menu: {} }));
const { menuTemplate } = await import('../../electron/menu.js');

const actions = { openFolder: vi.fn(), openRecent: vi.fn(), showSettingsFolder: vi.fn() };
const submenuOf = (items: MenuItemConstructorOptions[], label: string) =>
  items.find((item) => item.label === label)?.submenu as MenuItemConstructorOptions[];
const roles = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role).filter(Boolean);

describe('the application menu', () => {
  it('opens a folder with Ctrl/Cmd+O and lists recent folders', () => {
    const file = submenuOf(menuTemplate({ isMac: false, isDev: false, recent: [{ folder: '/p/R&D', name: 'R&D', lastOpened: 1 }], actions }), 'File');
    const open = file.find((item) => item.label === 'Open Folder…');
    expect(open?.accelerator).toBe('CmdOrCtrl+O');
    const recent = submenuOf(file, 'Open Recent');
    expect(recent.map((item) => item.label)).toEqual(['/p/R&&D']);
    (recent[0]?.click as () => void)();
    expect(actions.openRecent).toHaveBeenCalledWith('/p/R&D');
  });

  it('offers reload and developer tools only in development', () => {
    const view = (isDev: boolean) => roles(submenuOf(menuTemplate({ isMac: false, isDev, recent: [], actions }), 'View'));
    expect(view(false)).not.toContain('reload');
    expect(view(false)).not.toContain('toggleDevTools');
    expect(view(true)).toEqual(expect.arrayContaining(['reload', 'toggleDevTools', 'zoomIn', 'togglefullscreen']));
  });

  it('says so when there are no recent folders', () => {
    const file = submenuOf(menuTemplate({ isMac: true, isDev: false, recent: [], actions }), 'File');
    expect(submenuOf(file, 'Open Recent')).toEqual([{ label: 'No Recent Folders', enabled: false }]);
  });
});
