import type { WorkbenchEvent } from '../engine/contract/index.js';
import type { SessionWatcher } from './windowSession.js';

/** What the taskbar / dock icon shows for a window's run, as BrowserWindow.setProgressBar takes it. */
export interface ProgressBar {
  /** A fraction from 0 to 1; above 1 means "busy, amount unknown", below 0 means no bar. */
  value: number;
  /** Honoured on Windows only; elsewhere only `value` counts. */
  mode: 'none' | 'normal' | 'indeterminate' | 'paused' | 'error';
}

export const noProgressBar: ProgressBar = { value: -1, mode: 'none' };
const busy: ProgressBar = { value: 2, mode: 'indeterminate' };

/**
 * The bar after `event`: busy through Research, Plan and the summary, the share of plan items done
 * during Implement, paused while the run waits for the user, gone when the run ends (red first if
 * it failed).
 */
export function nextProgressBar(bar: ProgressBar, event: WorkbenchEvent): ProgressBar {
  switch (event.type) {
    case 'run-started':
      return busy;
    case 'phase-started':
      return event.phase === 'implement' ? { value: 0, mode: 'normal' } : busy;
    case 'implement-progress':
      return itemsDone(event.current - 1, event.total);
    case 'approval-requested':
    case 'question-asked':
    case 'plan-ready':
      return bar.mode === 'none' ? bar : { ...bar, mode: 'paused' };
    case 'approval-resolved':
    case 'question-answered':
      return bar.mode === 'paused' ? { ...bar, mode: bar.value > 1 ? 'indeterminate' : 'normal' } : bar;
    case 'run-finished':
      return event.status === 'failed' ? { value: 1, mode: 'error' } : noProgressBar;
    default:
      return bar;
  }
}

function itemsDone(done: number, total: number): ProgressBar {
  if (total <= 0) return busy;
  return { value: Math.min(1, Math.max(0, done / total)), mode: 'normal' };
}

export interface ProgressWindow {
  setProgressBar(value: number, options?: { mode: ProgressBar['mode'] }): void;
  isDestroyed(): boolean;
}

export interface RunProgressOptions {
  window: ProgressWindow;
  platform: NodeJS.Platform;
  /** How long a failed run's red bar stays before it goes. */
  errorShownMs?: number;
}

/** Drives one window's taskbar / dock progress bar from its workbench's events. */
export class RunProgress implements SessionWatcher {
  private bar = noProgressBar;
  private clearLater: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: RunProgressOptions) {}

  event(event: WorkbenchEvent): void {
    this.show(nextProgressBar(this.bar, event));
  }

  released(): void {
    this.show(noProgressBar);
  }

  private show(wanted: ProgressBar): void {
    // Only Windows colours a bar red; elsewhere a full bar would read as success, so it just goes.
    const bar = wanted.mode === 'error' && this.options.platform !== 'win32' ? noProgressBar : wanted;
    if (bar.value === this.bar.value && bar.mode === this.bar.mode) return;
    clearTimeout(this.clearLater);
    this.bar = bar;
    const { window } = this.options;
    if (!window.isDestroyed()) window.setProgressBar(bar.value, { mode: bar.mode });
    if (bar.mode === 'error') this.clearLater = setTimeout(() => this.show(noProgressBar), this.options.errorShownMs ?? 4000);
  }
}
