import path from 'node:path';
import type { EventOf, Snapshot, WorkbenchChannel, WorkbenchEvent, WorkbenchEventType, WorkbenchResults } from '../../engine/contract/index.js';
import type { PayloadArgument, Workbench } from '../../engine/index.js';
import { WindowSession, type SessionWatcher, type SessionWindow } from '../../electron/windowSession.js';

/** A window as WindowSession and its watchers see it, recording what was sent to its page, its title and taskbar bar. */
export class FakeWindow implements SessionWindow {
  private static nextId = 1;
  readonly sent: Array<{ channel: string; event: WorkbenchEvent }> = [];
  readonly progress: Array<{ value: number; mode: string | undefined }> = [];
  title = '';
  focused = 0;
  /** Whether the user is looking at this window. */
  inFront = false;
  readonly webContents = {
    id: FakeWindow.nextId++,
    send: (channel: string, event: WorkbenchEvent) => void this.sent.push({ channel, event }),
    isDestroyed: () => false,
  };
  setTitle(title: string) {
    this.title = title;
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {
    this.focused += 1;
  }
  isFocused() {
    return this.inFront;
  }
  setProgressBar(value: number, options?: { mode?: string }) {
    this.progress.push({ value, mode: options?.mode });
  }
}

async function runsNothing(): Promise<never> {
  throw new Error('FakeWorkbench runs nothing');
}

/** A workbench whose events the test emits and whose closing it observes. */
export class FakeWorkbench implements Workbench {
  private readonly listeners = new Set<(event: WorkbenchEvent) => void>();
  closed = false;
  readonly mcp = null;
  constructor(readonly folder: string) {}
  finished = runsNothing;
  /** Answers a snapshot of an empty folder, and a cancel of no run; refuses everything else. */
  async request<C extends WorkbenchChannel>(channel: C, ..._payload: PayloadArgument<C>): Promise<WorkbenchResults[C]> {
    if (channel === 'session:cancel') return { cancelled: false } as WorkbenchResults[C];
    if (channel !== 'workbench:snapshot') return runsNothing();
    const snapshot: Snapshot = {
      folder: this.folder,
      name: path.basename(this.folder),
      fileCount: 0,
      conversation: [],
      rpi: { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false },
      running: false,
      lastSeq: 0,
      warnings: [],
    };
    return snapshot as WorkbenchResults[C];
  }
  subscribe(listener: (event: WorkbenchEvent) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  emit(event: WorkbenchEvent) {
    this.listeners.forEach((listener) => listener(event));
  }
  async close() {
    this.closed = true;
  }
}

export const warning = (seq: number): WorkbenchEvent => ({ type: 'warning', seq, runId: null, message: `w${seq}` });

let lastSeq = 0;
/** An event of run "r1" with the next sequence number: `runEvent('implement-progress', { current: 1, total: 3, label: 'Parse' })`. */
export function runEvent<T extends WorkbenchEventType>(type: T, fields: Omit<EventOf<T>, 'type' | 'seq' | 'runId'>): EventOf<T> {
  lastSeq += 1;
  return { type, seq: lastSeq, runId: 'r1', ...fields } as EventOf<T>;
}

/**
 * A session on a fake window whose folders open as FakeWorkbenches; folders named *broken* fail. The
 * title is `title:<folder>`, with ` (running)` while a run is active.
 */
export function fakeSession(options: { watchers?: (window: FakeWindow, focus: () => void) => SessionWatcher[] } = {}) {
  const opened = new Map<string, FakeWorkbench>();
  const window = new FakeWindow();
  const session: WindowSession = new WindowSession({
    window,
    titleFor: (folder, running) => `title:${folder}${running ? ' (running)' : ''}`,
    watchers: options.watchers?.(window, () => session.focus()),
    open: async (folder) => {
      if (folder.includes('broken')) throw new Error(`Folder not found: ${folder}`);
      const workbench = new FakeWorkbench(folder);
      opened.set(folder, workbench);
      return workbench;
    },
  });
  return { window, session, opened };
}
