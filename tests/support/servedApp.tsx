import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Window as HappyDomWindow } from 'happy-dom';
import { act, cleanup, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, onTestFinished } from 'vitest';
import { App } from '../../renderer/src/components/App.js';
import { connectSocketBridge } from '../../renderer/src/bridge/socketBridge.js';
import { StoreProvider } from '../../renderer/src/store/StoreContext.js';
import { createWorkbenchStore, type WorkbenchStore } from '../../renderer/src/store/workbenchStore.js';

const browserHost = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../cli/serve/browserHost.ts');

/**
 * The whole App connected over the real socket bridge to the browser host serving `folder`, run from
 * source in its own Node process with `settings` saved in `configDir` (the openai SDK refuses to run
 * inside happy-dom). The host is stopped when the test finishes. Call from a happy-dom test.
 */
export async function serveApp(options: { folder: string; configDir: string; settings: Record<string, unknown> }): Promise<WorkbenchStore> {
  const { folder, configDir } = options;
  await writeFile(path.join(configDir, 'settings.json'), JSON.stringify(options.settings));
  const hostOptions = { folder, configDir, rendererDir: configDir, env: { PATH: process.env.PATH } };
  const script = `const { startBrowserHost } = await import(${JSON.stringify(browserHost)});
const host = await startBrowserHost(${JSON.stringify(hostOptions)});
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
console.log('Open: ' + host.url);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  onTestFinished(() => new Promise<void>((resolve) => (child.exitCode === null ? (child.once('exit', () => resolve()), child.kill('SIGTERM')) : resolve())));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      const printed = /Open: (\S+)/.exec(output)?.[1];
      if (printed) resolve(printed);
    });
    child.once('exit', (code) => reject(new Error(`the browser host exited with ${code}: ${output}`)));
  });
  // The page comes from the host, so its socket carries the Origin the host accepts.
  (window as unknown as HappyDomWindow).happyDOM.setURL(url);
  const store = createWorkbenchStore(connectSocketBridge());
  await renderStarted(store);
  return store;
}

/** Renders `ui` (the whole App unless given) over `store`, and starts the store as main.tsx does. */
export async function renderStarted(store: WorkbenchStore, ui: ReactNode = <App />): Promise<RenderResult> {
  const rendered = render(<StoreProvider store={store}>{ui}</StoreProvider>);
  await act(() => store.getState().start());
  return rendered;
}

/** For the calling suite: the chat laid out as fakeChatLayout says in every test, and the page unmounted after it. */
export function useFakeChatLayout(): void {
  let restoreLayout: () => void = () => undefined;
  beforeEach(() => {
    restoreLayout = fakeChatLayout();
  });
  afterEach(() => {
    cleanup();
    restoreLayout();
  });
}

/**
 * happy-dom lays nothing out: gives the chat a 600px view and each message row 80px, as a browser
 * would, so the virtual list draws rows. Returns the undo.
 */
function fakeChatLayout(): () => void {
  const sizes: Record<string, (element: HTMLElement) => number> = {
    clientHeight: (element) => (element.classList.contains('chat') ? 600 : 0),
    offsetHeight: (element) => (element.classList.contains('message-row') ? 80 : 0),
    scrollHeight: (element) => (element.classList.contains('chat') ? Number.parseFloat(element.querySelector<HTMLElement>('.message-list')?.style.height ?? '0') : 0),
  };
  for (const [name, size] of Object.entries(sizes)) {
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: function (this: HTMLElement) { return size(this); } });
  }
  return () => Object.keys(sizes).forEach((name) => delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name]);
}
