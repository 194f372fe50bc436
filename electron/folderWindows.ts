import { BrowserWindow, dialog, type OpenDialogOptions, type WebContents } from 'electron';
import { commandChannel, type DesktopCommand } from '../engine/contract/channels.js';
import { createDispatch, type Dispatch } from '../engine/contract/index.js';
import { openWorkbench, type AllowedCommands, type FolderChecks, type KeyCipher, type PromptCacheKeys, type RecentFolders, type SettingsStore, type UserMcp } from '../engine/index.js';
import { notifyDesktop } from './desktopNotifier.js';
import { RunNotices } from './runNotices.js';
import { RunProgress } from './runProgress.js';
import { createWindow, windowTitle } from './window.js';
import { openInWindow, realFolder, windowHandlers, type WindowHandlerDeps } from './windowHandlers.js';
import { WindowSession } from './windowSession.js';

export interface FolderWindowsOptions {
  preloadPath: string;
  entryUrl: string;
  settings: SettingsStore;
  recent: RecentFolders;
  allowedCommands: AllowedCommands;
  folderChecks: FolderChecks;
  promptCacheKeys: PromptCacheKeys;
  /** The user's MCP servers: each window's folder runs them. */
  mcp: UserMcp;
  cipher: KeyCipher;
  onRecentChanged(): void;
}

interface Entry {
  window: BrowserWindow;
  session: WindowSession;
  dispatch: Dispatch;
}

/** The app's windows, each bound to at most one folder and answering its own requests. */
export class FolderWindows {
  private readonly entries = new Map<number, Entry>();
  private readonly deps: WindowHandlerDeps;

  constructor(private readonly options: FolderWindowsOptions) {
    this.deps = {
      settings: options.settings,
      recent: options.recent,
      cipher: options.cipher,
      mcp: options.mcp,
      onRecentChanged: options.onRecentChanged,
      sessionWithFolder: (folder) => [...this.entries.values()].find((entry) => entry.session.folder === folder)?.session,
      pickFolder: (session) => this.pickFolder(this.entryOf(session)?.window),
    };
  }

  /**
   * Opens a window, on `folder` when given; the page loads once the folder is open, so its first snapshot
   * has it. A folder already open in a window brings that window to the front instead.
   */
  async openWindow(folder?: string): Promise<void> {
    const holder = folder ? this.deps.sessionWithFolder(await realFolder(folder)) : undefined;
    if (holder) return holder.focus();
    const window = createWindow({ preloadPath: this.options.preloadPath });
    const { settings, allowedCommands, folderChecks, promptCacheKeys, mcp } = this.options;
    const session: WindowSession = new WindowSession({
      window,
      titleFor: windowTitle,
      open: (folder) =>
        openWorkbench(folder, {
          llmSettings: () => settings.llmSettings(),
          approvals: () => settings.approvalSettings(),
          allowedCommands,
          folderChecks,
          promptCacheKeys,
          mcp: mcp.workbenchOptions(),
        }),
      watchers: [
        new RunProgress({ window, platform: process.platform }),
        new RunNotices({ isFocused: () => window.isFocused(), focus: () => session.focus(), notify: notifyDesktop }),
      ],
    });
    const id = window.webContents.id;
    this.entries.set(id, { window, session, dispatch: createDispatch(windowHandlers(session, this.deps)) });
    window.on('closed', () => {
      this.entries.delete(id);
      session.close().catch((error: unknown) => console.error('Could not release the folder of a closed window:', error));
    });
    if (folder) await openInWindow(session, folder, this.deps).catch((error: unknown) => showOpenError(window, error));
    await window.loadURL(this.options.entryUrl).catch((error: unknown) => console.error('Could not load the workbench page:', error));
  }

  dispatchFor(contents: WebContents): Dispatch | null {
    return this.entries.get(contents.id)?.dispatch ?? null;
  }

  /** The menu's Open Folder…: asks for a folder, then opens it like `openFolder`. */
  async pickAndOpen(): Promise<void> {
    const folder = await this.pickFolder(this.focused()?.window);
    if (folder) await this.openFolder(folder);
  }

  /**
   * Opens `folder` in the focused window (or a new one when none is), then reloads that page: the
   * renderer did not ask for this folder, so it starts over from the new snapshot.
   */
  async openFolder(folder: string): Promise<void> {
    const entry = this.focused();
    if (!entry) return this.openWindow(folder);
    const before = entry.session.folder;
    try {
      await openInWindow(entry.session, folder, this.deps);
    } catch (error) {
      showOpenError(entry.window, error);
      return;
    }
    if (entry.session.folder !== before) entry.window.webContents.reload();
  }

  /** A menu command for the page of the focused window (or the most recent one, brought to the front). */
  sendCommand(command: DesktopCommand): void {
    const entry = this.frontmost();
    if (!entry || entry.window.webContents.isDestroyed()) return;
    entry.session.focus();
    entry.window.webContents.send(commandChannel, command);
  }

  /** Brings a window to the front, opening one if there is none (a second launch of the app). */
  async focusOrOpen(folder?: string): Promise<void> {
    if (folder) return this.openWindow(folder);
    const entry = this.frontmost();
    if (entry) entry.session.focus();
    else await this.openWindow();
  }

  /** Releases every folder's lock; used on quit. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.session.close()));
  }

  private focused(): Entry | undefined {
    const window = BrowserWindow.getFocusedWindow();
    return window ? this.entries.get(window.webContents.id) : undefined;
  }

  /** The focused window, else the most recently opened one. */
  private frontmost(): Entry | undefined {
    return this.focused() ?? [...this.entries.values()].at(-1);
  }

  private entryOf(session: WindowSession): Entry | undefined {
    return [...this.entries.values()].find((entry) => entry.session === session);
  }

  private async pickFolder(parent: BrowserWindow | undefined): Promise<string | null> {
    const options: OpenDialogOptions = {
      title: 'Open a project folder',
      buttonLabel: 'Open Folder',
      properties: ['openDirectory', 'createDirectory'],
    };
    const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }
}

function showOpenError(window: BrowserWindow, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  dialog.showMessageBox(window, { type: 'error', message: 'The folder could not be opened.', detail: message }).catch(() => undefined);
}
