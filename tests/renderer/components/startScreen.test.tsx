// @vitest-environment happy-dom
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkbenchBridge } from '../../../engine/contract/bridge.js';
import { createDispatch, type WorkbenchEvent } from '../../../engine/contract/index.js';
import { requestHandlers } from '../../../engine/host/requestHandlers.js';
import { openWorkbench, type Workbench } from '../../../engine/index.js';
import { RecentFolders, SettingsStore, noKeyStorage } from '../../../engine/settings/index.js';
import { createWorkbenchStore } from '../../../renderer/src/store/workbenchStore.js';
import { browserHostBridge, dispatchBridge } from '../../support/dispatchBridge.js';
import { renderStarted } from '../../support/servedApp.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const tempFolder = useTempFolders('rpi-start-');
const opened: Workbench[] = [];

afterEach(async () => {
  cleanup();
  await Promise.all(opened.splice(0).map((workbench) => workbench.close()));
});

interface DesktopOptions {
  /** What the desktop app says a dropped file's path is. */
  pathForFile?: (file: File) => string | null;
  /** The folder "Open folder…" picks. */
  pick?: string;
  /** Folders opened before. */
  recent?: string[];
}

/** The desktop app's handlers, the folder dialog aside: opening a folder opens its workbench in this window. */
async function desktopApp(options: DesktopOptions = {}) {
  const configDir = await tempFolder();
  const settings = new SettingsStore({ configDir, cipher: noKeyStorage('no keychain here'), env: {} });
  const recent = new RecentFolders(configDir);
  for (const folder of options.recent ?? []) await recent.add(folder);
  const listeners = new Set<(event: WorkbenchEvent) => void>();
  let current: Workbench | null = null;
  const openFolder = async (folder: string) => {
    current = await openWorkbench(folder);
    opened.push(current);
    current.subscribe((event) => listeners.forEach((listener) => listener(event)));
    await recent.add(current.folder);
    return current.request('workbench:snapshot');
  };
  const subscribe = (listener: (event: WorkbenchEvent) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const handlers = requestHandlers(
    { settings, recent, currentWorkbench: () => current },
    {
      'host:info': async () => ({ kind: 'electron', canPickFolder: true, canStoreApiKey: true, folder: current?.folder ?? null }),
      'folders:pick': async () => (options.pick ? openFolder(options.pick) : null),
      'folders:open': async ({ folder }) => openFolder(folder),
    },
  );
  const bridge: WorkbenchBridge = { ...dispatchBridge(createDispatch(handlers), subscribe), ...(options.pathForFile ? { pathForFile: options.pathForFile } : {}) };
  await renderStarted(createWorkbenchStore(bridge));
}

/** Drops files on the window the way a browser delivers a drag from the file manager. */
function dropOnWindow(...files: File[]) {
  const dataTransfer = { types: ['Files'], files, dropEffect: 'none' };
  fireEvent.dragEnter(window, { dataTransfer });
  fireEvent.dragOver(window, { dataTransfer });
  fireEvent.drop(window, { dataTransfer });
}

/** A folder whose last request stopped: research and a three-step plan on disk, step 1 done. */
async function stoppedRunFolder(plan: string | null): Promise<string> {
  const folder = await tempFolder();
  await mkdir(path.join(folder, '.workbench'));
  const request = { id: 'u1', role: 'user', text: 'Convert the statement', ts: Date.now() - 60_000 };
  await writeTree(folder, {
    '.workbench/conversation.jsonl': `${JSON.stringify(request)}\n`,
    ...(plan === null ? {} : { '.workbench/rpi/research.md': 'bank.csv has 40 rows.\n', '.workbench/rpi/plan.md': plan }),
  });
  return folder;
}

const threeSteps = `# Execution Plan
<!-- original_count: 3 -->

## Items
- [x] 1. Parse — read bank.csv
- [ ] 2. Categorise — group the rows
- [ ] 3. Write — write the workbook
`;

describe('the start screen', () => {
  it('lists recent folders with when they were last opened, and opens one', async () => {
    const project = await tempFolder();
    await desktopApp({ recent: [project] });
    const entry = await screen.findByTestId('recent-folder');
    expect(within(entry).getByText(path.basename(project))).toBeTruthy();
    expect(within(entry).getByText(project)).toBeTruthy();
    expect(entry.querySelector('time')?.textContent).toBe('just now');
    fireEvent.click(entry);
    expect((await screen.findByTestId('folder-name')).textContent).toBe(path.basename(project));
    expect(document.title).toBe(`${path.basename(project)} — RPI Workbench`);
  });

  it('opens the folder chosen with Open folder…', async () => {
    const project = await tempFolder();
    await desktopApp({ pick: project });
    expect(document.title).toBe('RPI Workbench');
    fireEvent.click(screen.getByRole('button', { name: 'Open folder…' }));
    expect((await screen.findByTestId('folder-name')).textContent).toBe(path.basename(project));
  });

  it('opens a folder dropped on the window, by the path the desktop app gives for it', async () => {
    const project = await tempFolder();
    await desktopApp({ pathForFile: (file) => (file.name === path.basename(project) ? project : null) });
    expect(screen.getByText('You can also drop a folder anywhere on this window.')).toBeTruthy();
    dropOnWindow(new File([], path.basename(project)));
    expect((await screen.findByTestId('folder-name')).textContent).toBe(path.basename(project));
    expect(screen.queryByTestId('drop-note')).toBeNull();
  });
});

describe('dropping a folder in the browser host', () => {
  it('says that dropping needs the desktop app', async () => {
    const folder = await tempFolder();
    const workbench = await openWorkbench(folder);
    opened.push(workbench);
    await renderStarted(createWorkbenchStore(browserHostBridge(workbench, await tempFolder())));

    dropOnWindow(new File(['x'], 'other-project'));
    const note = await screen.findByTestId('drop-note');
    expect(note.textContent).toContain('Opening a folder by dropping it needs the desktop app.');
    expect(note.textContent).toContain(`This page works on ${workbench.folder} only`);
    expect(screen.getByTestId('folder-name').textContent).toBe(path.basename(folder));
    fireEvent.click(within(note).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('drop-note')).toBeNull();
  });
});

describe('a folder with a stopped run', () => {
  it('offers to resume at the first pending step, or to discard it', async () => {
    const folder = await stoppedRunFolder(threeSteps);
    await desktopApp({ pick: folder });
    fireEvent.click(screen.getByRole('button', { name: 'Open folder…' }));
    const banner = await screen.findByTestId('resume-banner');
    expect(within(banner).getByRole('button', { name: 'Resume (step 2 of 3)' })).toBeTruthy();

    fireEvent.click(within(banner).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('resume-banner')).toBeNull());
    const { conversation, resumable } = await opened[0]!.request('workbench:snapshot');
    expect({ roles: conversation.map((message) => message.role), resumable }).toEqual({ roles: ['user', 'assistant'], resumable: false });
  });

  it('offers a plain Resume while there is no plan yet', async () => {
    await desktopApp({ pick: await stoppedRunFolder(null) });
    fireEvent.click(screen.getByRole('button', { name: 'Open folder…' }));
    const banner = await screen.findByTestId('resume-banner');
    expect(within(banner).getAllByRole('button').map((button) => button.textContent)).toEqual(['Resume', 'Discard']);
  });
});
