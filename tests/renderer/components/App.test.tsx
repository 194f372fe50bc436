// @vitest-environment happy-dom
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserHandlers } from '../../../cli/serve/browserHandlers.js';
import type { DesktopCommand, WorkbenchBridge } from '../../../engine/contract/bridge.js';
import { createDispatch, type RequestHandlers } from '../../../engine/contract/index.js';
import { requestHandlers } from '../../../engine/host/requestHandlers.js';
import { openWorkbench, type Workbench } from '../../../engine/index.js';
import { RecentFolders, SettingsStore, noKeyStorage } from '../../../engine/settings/index.js';
import { createWorkbenchStore } from '../../../renderer/src/store/workbenchStore.js';
import { dispatchBridge } from '../../support/dispatchBridge.js';
import { renderStarted } from '../../support/servedApp.js';

let temp: string;
let workbench: Workbench | null;

beforeEach(async () => {
  temp = await mkdtemp(path.join(os.tmpdir(), 'rpi-app-'));
  workbench = null;
});

afterEach(async () => {
  cleanup();
  await workbench?.close();
  await rm(temp, { recursive: true, force: true });
});

const stores = () => {
  const configDir = path.join(temp, 'config');
  return { settings: new SettingsStore({ configDir, cipher: noKeyStorage('no keychain here'), env: {} }), recent: new RecentFolders(configDir) };
};

async function renderWith(
  handlers: RequestHandlers,
  subscribe = workbench ? workbench.subscribe.bind(workbench) : () => () => undefined,
  desktop: Pick<WorkbenchBridge, 'onCommand'> = {},
) {
  await renderStarted(createWorkbenchStore({ ...dispatchBridge(createDispatch(handlers), subscribe), ...desktop }));
}

describe('App with a folder open (browser host handlers)', () => {
  beforeEach(async () => {
    const project = path.join(temp, 'project');
    await mkdir(project);
    await writeFile(path.join(project, 'one.txt'), '1');
    await writeFile(path.join(project, 'two.txt'), '2');
    workbench = await openWorkbench(project);
  });

  /** Renders the app as the browser host serves it, over that host's real handlers. */
  const renderProject = async () => {
    const { settings, recent } = stores();
    await renderWith(browserHandlers(workbench!, settings, recent));
    return { settings };
  };

  it('shows the folder, its file count, the empty chat and why the composer waits', async () => {
    await renderProject();
    expect(screen.getByTestId('folder-name').textContent).toBe('project');
    expect(screen.getByTestId('file-count').textContent).toBe('2 files');
    expect(screen.getByText('No messages yet')).toBeTruthy();
    expect(screen.getByText('Choose a model in Settings to start.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves settings from the dialog; the composer then accepts a request', async () => {
    const { settings } = await renderProject();
    fireEvent.keyDown(window, { key: ',', ctrlKey: true });
    fireEvent.change(await screen.findByLabelText('Model'), { target: { value: 'llama3.1' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Save' }).closest('form')!);
    await waitFor(() => expect(screen.queryByText('Choose a model in Settings to start.')).toBeNull());
    expect((await settings.get()).model).toBe('llama3.1');
    fireEvent.change(screen.getByLabelText('Request'), { target: { value: 'Add a CSV parser' } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('titles the window after the folder', async () => {
    await renderProject();
    expect(document.title).toBe('project — RPI Workbench');
  });

  it('carries out the desktop menu commands: open Settings, focus the request box', async () => {
    const { settings, recent } = stores();
    let command: (command: DesktopCommand) => void = () => undefined;
    await renderWith(browserHandlers(workbench!, settings, recent), undefined, {
      onCommand(listener) {
        command = listener;
        return () => undefined;
      },
    });
    act(() => command('focus-composer'));
    expect(document.activeElement).toBe(screen.getByLabelText('Request'));
    act(() => command('stop-run'));
    act(() => command('open-settings'));
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts a conversation on the desktop menu’s New Conversation (Ctrl/Cmd+N), shown with the request box focused', async () => {
    const { settings, recent } = stores();
    let command: (command: DesktopCommand) => void = () => undefined;
    await renderWith(browserHandlers(workbench!, settings, recent), undefined, {
      onCommand(listener) {
        command = listener;
        return () => undefined;
      },
    });
    expect(screen.queryAllByTestId('conversation')).toHaveLength(0);
    act(() => command('new-conversation'));
    await waitFor(() => expect(screen.getAllByTestId('conversation').map((row) => row.textContent)).toEqual([expect.stringContaining('New conversation')]));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Request')));
    expect(screen.getByRole('button', { current: true }).textContent).toContain('New conversation');
  });

  it('gives focus back to where it was when the settings dialog closes', async () => {
    await renderProject();
    screen.getByLabelText('Request').focus();
    fireEvent.keyDown(window, { key: ',', ctrlKey: true });
    (await screen.findByLabelText('Model')).focus();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Request'));
  });

  it('shows a settings error from the host inside the dialog', async () => {
    await renderProject();
    fireEvent.keyDown(window, { key: ',', ctrlKey: true });
    fireEvent.change(await screen.findByLabelText('Base URL'), { target: { value: 'ftp://example.com' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'm' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Save' }).closest('form')!);
    expect((await screen.findByRole('alert')).textContent).toBe('baseUrl must be an http:// or https:// URL');
  });
});

describe('App with no folder open (desktop start screen)', () => {
  it('offers Open folder… and the recent folders, and opens one', async () => {
    const { settings, recent } = stores();
    const project = path.join(temp, 'recent-project');
    await mkdir(project);
    await recent.add(project);
    const handlers = requestHandlers(
      { settings, recent, currentWorkbench: () => workbench },
      {
        'host:info': async () => ({ kind: 'electron', canPickFolder: true, canStoreApiKey: true, folder: workbench?.folder ?? null }),
        'folders:pick': async () => null,
        'folders:open': async ({ folder }) => {
          workbench = await openWorkbench(folder);
          return workbench.request('workbench:snapshot');
        },
      },
    );
    await renderWith(handlers);
    expect(screen.getByRole('button', { name: 'Open folder…' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: /recent-project/ }));
    expect((await screen.findByTestId('folder-name')).textContent).toBe('recent-project');
    expect(screen.getByTestId('file-count').textContent).toBe('0 files');
  });
});
