import path from 'node:path';
import type { Snapshot, WorkbenchEvent } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { WindowSession, type SessionWindow } from '../../electron/windowSession.js';

/** A window as WindowSession sees it, recording what was sent to its page and its title. */
export class FakeWindow implements SessionWindow {
  private static nextId = 1;
  readonly sent: Array<{ channel: string; event: WorkbenchEvent }> = [];
  title = '';
  focused = 0;
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
}

async function runsNothing(): Promise<never> {
  throw new Error('FakeWorkbench runs nothing');
}

/** A workbench whose events the test emits and whose closing it observes. */
export class FakeWorkbench implements Workbench {
  private readonly listeners = new Set<(event: WorkbenchEvent) => void>();
  closed = false;
  constructor(readonly folder: string) {}
  send = runsNothing;
  resume = runsNothing;
  approve = runsNothing;
  undo = runsNothing;
  previewUndo = runsNothing;
  regenerate = runsNothing;
  reviewPlan(): void {
    throw new Error('FakeWorkbench runs nothing');
  }
  async cancel() {
    return false;
  }
  async snapshot(): Promise<Snapshot> {
    return {
      folder: this.folder,
      name: path.basename(this.folder),
      fileCount: 0,
      conversation: [],
      rpi: { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false },
      running: false,
      lastSeq: 0,
      warnings: [],
    };
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

/** A session on a fake window whose folders open as FakeWorkbenches; folders named *broken* fail. */
export function fakeSession() {
  const opened = new Map<string, FakeWorkbench>();
  const window = new FakeWindow();
  const session = new WindowSession({
    window,
    titleFor: (folder) => `title:${folder}`,
    open: async (folder) => {
      if (folder.includes('broken')) throw new Error(`Folder not found: ${folder}`);
      const workbench = new FakeWorkbench(folder);
      opened.set(folder, workbench);
      return workbench;
    },
  });
  return { window, session, opened };
}
