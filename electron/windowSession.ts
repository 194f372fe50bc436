import type { WebContents } from 'electron';
import { eventChannel, type Snapshot } from '../engine/contract/index.js';
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

export interface WindowSessionOptions {
  window: SessionWindow;
  titleFor(folder: string | null): string;
  open?: (folder: string) => Promise<Workbench>;
}

/**
 * One window's hold on at most one folder: opening a folder takes its workbench (and lock), forwards the
 * workbench's events to the window, and releases the previous one. Opens and closes run one at a time.
 */
export class WindowSession {
  readonly window: SessionWindow;
  private workbench: Workbench | null = null;
  private unsubscribe: () => void = () => {};
  private queue: Promise<unknown> = Promise.resolve();
  private readonly titleFor: (folder: string | null) => string;
  private readonly openFolder: (folder: string) => Promise<Workbench>;

  constructor(options: WindowSessionOptions) {
    this.window = options.window;
    this.titleFor = options.titleFor;
    this.openFolder = options.open ?? openWorkbench;
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
      this.unsubscribe = next.subscribe((event) => {
        if (!this.window.webContents.isDestroyed()) this.window.webContents.send(eventChannel, event);
      });
      if (!this.window.isDestroyed()) this.window.setTitle(this.titleFor(next.folder));
      return next.snapshot();
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

  private async release(): Promise<void> {
    const previous = this.workbench;
    this.unsubscribe();
    this.unsubscribe = () => {};
    this.workbench = null;
    await previous?.close();
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
