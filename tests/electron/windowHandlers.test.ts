import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentFolders } from '../../engine/settings/index.js';
import { openInWindow, type FolderOpenerDeps } from '../../electron/windowHandlers.js';
import { WindowSession } from '../../electron/windowSession.js';
import { FakeWindow, fakeSession } from './fakes.js';

describe('openInWindow', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };

  it('opens a real folder, takes its lock and remembers it as recent', async () => {
    const [config, folder] = [await tempDir('open-config-'), await tempDir('open-project-')];
    const session = new WindowSession({ window: new FakeWindow(), titleFor: String });
    let menuRefreshes = 0;
    const deps: FolderOpenerDeps = {
      recent: new RecentFolders(config),
      sessionWithFolder: () => undefined,
      pickFolder: async () => null,
      onRecentChanged: () => void (menuRefreshes += 1),
    };
    const snapshot = await openInWindow(session, folder, deps);
    if (!snapshot) throw new Error('expected the folder to open in this window');
    expect(JSON.parse(await readFile(path.join(snapshot.folder, '.workbench', 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect((await deps.recent.list()).map((entry) => entry.folder)).toEqual([snapshot.folder]);
    expect(menuRefreshes).toBe(1);
    await session.close();
    await expect(readFile(path.join(snapshot.folder, '.workbench', 'lock'))).rejects.toThrow();
  });

  it('focuses the window that already has the folder instead of opening it twice', async () => {
    const config = await tempDir('open-config-');
    const holder = fakeSession();
    await holder.session.open('/p/ledger');
    const asker = fakeSession();
    const deps: FolderOpenerDeps = {
      recent: new RecentFolders(config),
      sessionWithFolder: (folder) => (folder === '/p/ledger' ? holder.session : undefined),
      pickFolder: async () => null,
      onRecentChanged: () => {},
    };
    const snapshot = await openInWindow(asker.session, '/p/ledger', deps);
    expect(snapshot).toBeNull();
    expect(holder.window.focused).toBe(1);
    expect(asker.opened.size).toBe(0);
  });
});
