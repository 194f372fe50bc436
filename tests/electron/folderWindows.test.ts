import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WebContents } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result, Snapshot } from '../../engine/contract/index.js';
import { userMcp } from '../../engine/mcp/userMcp.js';
import { AllowedCommands, FolderChecks, noKeyStorage, PromptCacheKeys, RecentFolders, SettingsStore } from '../../engine/settings/index.js';
import { useTempFolders } from '../support/tempFolder.js';

/** Just enough of BrowserWindow for FolderWindows: it records titles, focus, loads, reloads and what its page was sent. */
const electron = vi.hoisted(() => ({ windows: [] as FakeBrowserWindow[], focused: null as FakeBrowserWindow | null }));
interface FakeBrowserWindow {
  title: string;
  focusCount: number;
  loaded: string[];
  reloads: number;
  sent: Array<[string, unknown]>;
  webContents: { id: number };
  emit(name: string): boolean;
}
vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  let nextId = 100;
  class BrowserWindow extends EventEmitter {
    title = '';
    focusCount = 0;
    loaded: string[] = [];
    reloads = 0;
    sent: Array<[string, unknown]> = [];
    destroyed = false;
    readonly webContents = {
      id: nextId++,
      send: (channel: string, payload: unknown) => void this.sent.push([channel, payload]),
      isDestroyed: () => this.destroyed,
      reload: () => void (this.reloads += 1),
    };
    constructor() {
      super();
      electron.windows.push(this);
    }
    static getFocusedWindow() {
      return electron.focused;
    }
    async loadURL(url: string) {
      this.loaded.push(url);
    }
    setTitle(title: string) {
      this.title = title;
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {
      this.focusCount += 1;
      electron.focused = this;
    }
    isFocused() {
      return electron.focused === this;
    }
    setProgressBar() {}
    show() {}
  }
  return {
    BrowserWindow,
    dialog: { showMessageBox: async () => ({ response: 0 }), showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
    nativeTheme: { shouldUseDarkColors: false },
    Notification: { isSupported: () => false },
  };
});

const { FolderWindows } = await import('../../electron/folderWindows.js');

const tempFolder = useTempFolders('folder-windows-');
let windows: InstanceType<typeof FolderWindows> | undefined;

afterEach(async () => {
  await windows?.closeAll();
  windows = undefined;
  electron.windows.length = 0;
  electron.focused = null;
});

async function folderWindows() {
  const config = await tempFolder();
  const cipher = noKeyStorage('no keychain in tests');
  windows = new FolderWindows({
    preloadPath: '/app/dist/electron/preload.cjs',
    entryUrl: 'app://renderer/index.html',
    settings: new SettingsStore({ configDir: config, cipher, env: {} }),
    recent: new RecentFolders(config),
    allowedCommands: new AllowedCommands(config),
    folderChecks: new FolderChecks(config),
    promptCacheKeys: new PromptCacheKeys(config),
    mcp: userMcp(config, cipher),
    cipher,
    onRecentChanged: () => {},
  });
  return windows;
}

const windowAt = (index: number) => {
  const window = electron.windows[index];
  if (!window) throw new Error(`there is no window ${index}`);
  return window;
};

describe('one window per folder', () => {
  it('opens a folder in a titled window, and brings that window to the front when it is opened again', async () => {
    const [windows, folder] = [await folderWindows(), await tempFolder()];
    await windows.openWindow(folder);
    await windows.openWindow(folder);
    expect(electron.windows).toHaveLength(1);
    expect(windowAt(0)).toMatchObject({ title: `${path.basename(folder)} — RPI Workbench`, loaded: ['app://renderer/index.html'], focusCount: 1 });
  });

  it('answers a page that asks for a folder open in another window by bringing that window to the front', async () => {
    const [windows, folder] = [await folderWindows(), await tempFolder()];
    await windows.openWindow(folder);
    await windows.openWindow();
    const asker = windowAt(1);
    const dispatch = windows.dispatchFor(asker.webContents as unknown as WebContents);
    const answer = (await dispatch?.('folders:open', { folder })) as Result<Snapshot | null>;
    expect(answer).toEqual({ ok: true, value: null });
    expect(windowAt(0).focusCount).toBe(1);
    expect(asker.title).toBe('');
  });

  it("opening a recent folder from another window's menu focuses its window and leaves the other page alone", async () => {
    const [windows, folder] = [await folderWindows(), await tempFolder()];
    await windows.openWindow(folder);
    await windows.openWindow();
    electron.focused = windowAt(1);
    await windows.openFolder(folder);
    expect(electron.focused).toBe(windowAt(0));
    expect(windowAt(1).reloads).toBe(0);
  });

  it("releases the folder's lock when its window closes", async () => {
    const [windows, folder] = [await folderWindows(), await tempFolder()];
    await windows.openWindow(folder);
    expect(existsSync(path.join(folder, '.workbench', 'lock'))).toBe(true);
    windowAt(0).emit('closed');
    await vi.waitFor(() => expect(existsSync(path.join(folder, '.workbench', 'lock'))).toBe(false));
  });
});

describe('menu commands', () => {
  it("go to the focused window's page on the command channel", async () => {
    const windows = await folderWindows();
    await windows.openWindow();
    await windows.openWindow();
    electron.focused = windowAt(0);
    windows.sendCommand('stop-run');
    expect(windowAt(0).sent).toEqual([['workbench:command', 'stop-run']]);
    expect(windowAt(1).sent).toEqual([]);
  });

  it('go to the most recent window, brought to the front, when none is focused', async () => {
    const windows = await folderWindows();
    await windows.openWindow();
    await windows.openWindow();
    windows.sendCommand('open-settings');
    expect(windowAt(1).sent).toEqual([['workbench:command', 'open-settings']]);
    expect(electron.focused).toBe(windowAt(1));
  });
});
