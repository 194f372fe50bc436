import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WebContents } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatch, requestChannels, type Dispatch, type Snapshot } from '../../engine/contract/index.js';
import { noKeyStorage, RecentFolders, SettingsStore } from '../../engine/settings/index.js';
import { FakeWindow } from './fakes.js';

type Handler = (event: unknown, payload: unknown) => Promise<unknown>;
const ipcMain = vi.hoisted(() => ({
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler) {
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
}));
vi.mock('electron', () => ({ ipcMain }));

const { bindIpc } = await import('../../electron/ipcBinding.js');
const { trustedOrigins } = await import('../../electron/origins.js');
const { windowHandlers } = await import('../../electron/windowHandlers.js');
const { WindowSession } = await import('../../electron/windowSession.js');

interface FakeFrame {
  url: string;
  frameToken: string;
  parent: FakeFrame | null;
}

function pageOf(url: string, id = 1) {
  const mainFrame: FakeFrame = { url, frameToken: `main-${id}`, parent: null };
  return { id, mainFrame } as unknown as WebContents & { mainFrame: FakeFrame };
}

const invoke = (channel: string, sender: WebContents, payload: unknown, frame: FakeFrame | null = (sender.mainFrame as unknown as FakeFrame)) => {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return handler({ sender, senderFrame: frame }, payload);
};

let dirs: string[] = [];
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

let session: InstanceType<typeof WindowSession>;
let window: FakeWindow;
let unbind: () => void;
const ours = pageOf('app://renderer/index.html');

beforeEach(async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const config = await tempDir('ipc-config-');
  window = new FakeWindow();
  session = new WindowSession({ window, titleFor: (folder) => `title:${folder}` });
  const dispatch: Dispatch = createDispatch(
    windowHandlers(session, {
      settings: new SettingsStore({ configDir: config, cipher: noKeyStorage('no keychain in tests'), env: {} }),
      recent: new RecentFolders(config),
      cipher: noKeyStorage('no keychain in tests'),
      sessionWithFolder: () => undefined,
      pickFolder: async () => null,
      onRecentChanged: () => {},
    }),
  );
  unbind = bindIpc({ dispatchFor: (sender) => (sender === ours ? dispatch : null), isTrusted: trustedOrigins().isTrusted });
});

afterEach(async () => {
  vi.restoreAllMocks();
  unbind();
  await session.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

describe('the IPC binding', () => {
  it('handles exactly the contract channels', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...requestChannels].sort());
  });

  it('answers a valid request from our page', async () => {
    const folder = await tempDir('ipc-project-');
    const result = (await invoke('folders:open', ours, { folder })) as { ok: true; value: Snapshot };
    expect(result.ok).toBe(true);
    expect(result.value.name).toBe(path.basename(folder));
    expect(await invoke('host:info', ours, {})).toEqual({
      ok: true,
      value: { kind: 'electron', canPickFolder: true, canStoreApiKey: false, apiKeyStorageNote: 'no keychain in tests', folder: result.value.folder },
    });
    expect(window.title).toBe(`title:${result.value.folder}`);
  });

  it("refuses an invalid payload with the contract's message", async () => {
    expect(await invoke('session:send', ours, { prompt: '' })).toEqual({
      ok: false,
      error: 'session:send: prompt must be a non-empty string',
    });
    expect(await invoke('folders:open', ours, { folder: '/tmp', extra: 1 })).toEqual({
      ok: false,
      error: 'folders:open: unexpected field "extra"',
    });
  });

  it('turns a folder that cannot be opened into an error the user can read', async () => {
    const missing = path.join(os.tmpdir(), 'no-such-folder-for-ipc-test');
    expect(await invoke('folders:open', ours, { folder: missing })).toEqual({
      ok: false,
      error: `folders:open: Folder not found: ${missing}`,
    });
  });

  it('refuses a request from a foreign page', async () => {
    const foreign = pageOf('https://evil.example/', 1);
    const result = await invoke('settings:get', ours, {}, foreign.mainFrame as unknown as FakeFrame);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('settings:get: refused') });
  });

  it('refuses a request from a subframe, even one of ours', async () => {
    const frame: FakeFrame = { url: 'app://renderer/index.html', frameToken: 'child', parent: ours.mainFrame };
    expect(await invoke('settings:get', ours, {}, frame)).toMatchObject({ ok: false, error: expect.stringContaining('main frame') });
  });

  it('refuses a page that is not one of our windows, and a page that is gone', async () => {
    const stranger = pageOf('app://renderer/index.html', 99);
    expect(await invoke('settings:get', stranger, {})).toMatchObject({ ok: false, error: expect.stringContaining('refused') });
    expect(await invoke('settings:get', ours, {}, null)).toMatchObject({ ok: false, error: expect.stringContaining('gone') });
  });
});
