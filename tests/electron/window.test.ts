import { describe, expect, it, vi } from 'vitest';

const theme = vi.hoisted(() => ({ shouldUseDarkColors: false }));
vi.mock('electron', () => ({ BrowserWindow: class {}, nativeTheme: theme }));

const { windowOptions, windowTitle } = await import('../../electron/window.js');

describe('windowOptions', () => {
  it('isolates and sandboxes the page, without Node or webviews', () => {
    const options = windowOptions('/app/dist/electron/preload.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/dist/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: true,
    });
  });

  it('stays hidden until painted, with a background matching the OS theme', () => {
    theme.shouldUseDarkColors = true;
    const dark = windowOptions('/p.cjs');
    theme.shouldUseDarkColors = false;
    const light = windowOptions('/p.cjs');
    expect(dark.show).toBe(false);
    expect(dark.backgroundColor).not.toBe(light.backgroundColor);
    expect(light.minWidth).toBeLessThanOrEqual(light.width ?? 0);
  });
});

describe('windowTitle', () => {
  it('names the open folder, or just the app when none is open', () => {
    expect(windowTitle('/home/ada/ledger')).toBe('ledger — RPI Workbench');
    expect(windowTitle(null)).toBe('RPI Workbench');
  });

  it('marks a folder whose run is active', () => {
    expect(windowTitle('/home/ada/ledger', true)).toBe('● ledger — RPI Workbench');
    expect(windowTitle('/home/ada/ledger', false)).toBe('ledger — RPI Workbench');
  });
});
