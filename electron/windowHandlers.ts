import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandlers, Snapshot } from '../engine/contract/index.js';
import { requestHandlers, type KeyCipher, type RecentFolders, type SettingsStore, type UserMcp } from '../engine/index.js';
import type { WindowSession } from './windowSession.js';

export interface FolderOpenerDeps {
  recent: RecentFolders;
  /** The session already holding `folder` (a real path), if any window has it open. */
  sessionWithFolder(folder: string): WindowSession | undefined;
  /** Asks the user for a folder; null when they cancel. */
  pickFolder(session: WindowSession): Promise<string | null>;
  onRecentChanged(): void;
}

export interface WindowHandlerDeps extends FolderOpenerDeps {
  settings: SettingsStore;
  cipher: KeyCipher;
  /** The user's MCP servers (Settings → MCP servers). */
  mcp?: UserMcp;
}

/** Every request a workbench window can make, answered for `session`. */
export function windowHandlers(session: WindowSession, deps: WindowHandlerDeps): RequestHandlers {
  return requestHandlers(
    { settings: deps.settings, recent: deps.recent, currentWorkbench: () => session.current(), ...(deps.mcp ? { mcp: deps.mcp } : {}) },
    {
      'folders:pick': () => pickInWindow(session, deps),
      'folders:open': ({ folder }) => openInWindow(session, folder, deps),
      'host:info': async () => {
        const storage = deps.cipher.availability();
        return {
          kind: 'electron',
          canPickFolder: true,
          canStoreApiKey: storage.ok,
          ...(storage.ok ? {} : { apiKeyStorageNote: storage.reason }),
          folder: session.folder,
        };
      },
    },
  );
}

/** Lets the user pick a folder and opens it in `session`; null when they cancel. */
export async function pickInWindow(session: WindowSession, deps: FolderOpenerDeps): Promise<Snapshot | null> {
  const folder = await deps.pickFolder(session);
  return folder === null ? null : openInWindow(session, folder, deps);
}

/**
 * Opens `folder` in `session`. A folder already open in another window is not opened twice (its lock
 * is held there): that window comes to the front and null says this window did not change.
 */
export async function openInWindow(session: WindowSession, folder: string, deps: FolderOpenerDeps): Promise<Snapshot | null> {
  const holder = deps.sessionWithFolder(await realFolder(folder));
  const workbench = holder?.current();
  if (holder && workbench) {
    if (holder === session) return workbench.request('workbench:snapshot');
    holder.focus();
    return null;
  }
  const snapshot = await session.open(folder);
  await deps.recent.add(snapshot.folder);
  deps.onRecentChanged();
  return snapshot;
}

/** The real path of `folder` as a workbench would hold it, or its absolute path when it does not exist. */
export async function realFolder(folder: string): Promise<string> {
  const absolute = path.resolve(folder);
  return realpath(absolute).catch(() => absolute);
}
