import type { WebContents } from 'electron';
import { eventChannel, type Snapshot, type WorkbenchEvent } from '../engine/contract/index.js';
import { openWorkbench, type Workbench } from '../engine/index.js';

/** The parts of a BrowserWindow a session uses; a BrowserWindow is one. */
export interface SessionWindow {
  readonly webContents: Pick<WebContents, 'id' | 'send' | 'isDestroyed'>;
  setTitle(title: string): void;
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
}

/** Something outside the page that follows the window's folder: the taskbar progress, notifications. */
export interface SessionWatcher {
  /** An event of the folder open in the window (`folder` is its real path). */
  event(event: WorkbenchEvent, folder: string): void;
  /** The window let go of its folder: whatever the watcher shows for it goes away. */
  released(): void;
}

export interface WindowSessionOptions {
  window: SessionWindow;
  /** The window's title for its folder, marked while a run is active. */
  titleFor(folder: string | null, running: boolean): string;
  open?: (folder: string) => Promise<Workbench>;
  watchers?: SessionWatcher[];
}

/**
 * One window's hold on at most one folder: opening a folder takes its workbench (and lock), forwards the
 * workbench's events to the window and its watchers, and releases the previous one. Opens and closes run
 * one at a time.
 */
export class WindowSession {
  readonly window: SessionWindow;
  private workbench: Workbench | null = null;
  private unsubscribe: () => void = () => {};
  private queue: Promise<unknown> = Promise.resolve();
  private readonly titleFor: WindowSessionOptions['titleFor'];
  private readonly openFolder: (folder: string) => Promise<Workbench>;
  private readonly watchers: readonly SessionWatcher[];

  constructor(options: WindowSessionOptions) {
    this.window = options.window;
    this.titleFor = options.titleFor;
    this.openFolder = options.open ?? openWorkbench;
    this.watchers = options.watchers ?? [];
  }

  get folder(): string | null {
    return this.workbench?.folder ?? null;
  }

  current(): Workbench | null {
    return this.workbench;
  }

  /** Opens `folder` in this window. If it cannot be opened, the window keeps its current folder. */
  open(folder: string): Promise<Snapshot> {
    return this.serially(async () => {
      const next = await this.openFolder(folder);
      await this.release();
      this.workbench = next;
      this.unsubscribe = next.subscribe((event) => this.deliver(next.folder, event));
      this.showTitle(next.folder, false);
      return next.request('workbench:snapshot');
    });
  }

  /** Releases the folder (and its lock); the window stays open. */
  close(): Promise<void> {
    return this.serially(() => this.release());
  }

  focus(): void {
    if (this.window.isDestroyed()) return;
    if (this.window.isMinimized()) this.window.restore();
    this.window.focus();
  }

  private deliver(folder: string, event: WorkbenchEvent): void {
    if (!this.window.webContents.isDestroyed()) this.window.webContents.send(eventChannel, event);
    if (event.type === 'run-started' || event.type === 'run-finished') this.showTitle(folder, event.type === 'run-started');
    for (const watcher of this.watchers) {
      try {
        watcher.event(event, folder);
      } catch (error) {
        // A taskbar or notification failure must not keep the other watchers from their events.
        console.error('A window watcher failed on a workbench event:', error);
      }
    }
  }

  private showTitle(folder: string | null, running: boolean): void {
    if (!this.window.isDestroyed()) this.window.setTitle(this.titleFor(folder, running));
  }

  private async release(): Promise<void> {
    const previous = this.workbench;
    this.unsubscribe();
    this.unsubscribe = () => {};
    this.workbench = null;
    if (previous) this.watchers.forEach((watcher) => watcher.released());
    await previous?.close();
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
