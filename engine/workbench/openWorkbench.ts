import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Snapshot, WorkbenchEvent } from '../contract/index.js';
import { readRpiState } from '../rpi/rpiState.js';
import { loadConversation } from '../store/conversation.js';
import { countFiles } from '../workspace/walkFiles.js';
import { EventBus } from './eventBus.js';
import { checkFolder } from './folderCheck.js';
import { acquireFolderLock } from './folderLock.js';

export const stateDirName = '.workbench';

/** The engine facade: everything the desktop app, the CLI and the browser host do goes through it. */
export interface Workbench {
  /** The real absolute path of the opened folder. */
  readonly folder: string;
  snapshot(): Promise<Snapshot>;
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * Opens a project folder: checks it, creates `.workbench/` (git-ignored from inside), and takes the
 * folder's lock. Throws a FolderError or FolderLockedError whose message can be shown as is.
 */
export async function openWorkbench(folder: string): Promise<Workbench> {
  const root = await checkFolder(folder);
  const stateDir = path.join(root, stateDirName);
  await mkdir(stateDir, { recursive: true });
  await ensureSelfIgnored(stateDir);
  const lock = await acquireFolderLock(root, stateDir);
  const bus = new EventBus();
  let closed = false;

  const assertOpen = () => {
    if (closed) throw new Error(`The workbench for ${root} is closed.`);
  };

  return {
    folder: root,
    async snapshot() {
      assertOpen();
      const [conversation, rpi, fileCount] = await Promise.all([
        loadConversation(stateDir),
        readRpiState(stateDir),
        countFiles(root),
      ]);
      return {
        folder: root,
        name: path.basename(root),
        fileCount,
        conversation: conversation.records,
        rpi,
        running: false,
        lastSeq: bus.lastSeq,
        warnings: conversation.warnings,
      };
    },
    subscribe(listener) {
      assertOpen();
      return bus.subscribe(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      bus.clear();
      await lock.release();
    },
  };
}

/** `.workbench/.gitignore` holds "*" so git never sees the folder; the user's own .gitignore is never edited. */
async function ensureSelfIgnored(stateDir: string): Promise<void> {
  const file = path.join(stateDir, '.gitignore');
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current?.trim() !== '*') await writeFile(file, '*\n');
}
