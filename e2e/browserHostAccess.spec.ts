import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { WebSocket } from 'ws';
import { serveFolder, type ServedFolder } from './support/serveHost.js';
import { afterTest, runTeardown } from './support/teardown.js';

/**
 * Browsers do not separate cookies by port, so anything the host hands the browser as a cookie is
 * also sent to every other server on 127.0.0.1. These tests open the served app in Chromium, then a
 * page of another local server, and check that nothing that opens the socket ever reaches it.
 */

interface Recorded {
  url: string;
  headers: IncomingHttpHeaders;
}

let folder: string;
let served: ServedFolder;
let other: Server;
let otherOrigin: string;
let recorded: Recorded[];

test.beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-e2e-project-'));
  afterTest(() => rm(folder, { recursive: true, force: true }));
  await writeFile(path.join(folder, 'README.md'), '# Demo\n');
  served = await serveFolder(folder);
  afterTest(() => served.stop());
  recorded = [];
  other = createServer((request, response) => {
    recorded.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Another local app</title><img src="/pixel.png">');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
  afterTest(() => new Promise((resolve) => other.close(resolve)));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

test.afterEach(runTeardown);

const tokenOf = (url: string) => /token=([\w-]+)/.exec(url)?.[1] ?? '';
const hostOrigin = () => new URL(served.url).origin;

/** Opens the host's socket the way a replaying attacker would: any Origin, any headers. */
function tryOpen(url: string, headers: Record<string, string>): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.terminate();
      resolve('open');
    });
    socket.once('error', () => resolve('refused'));
  });
}

test('another server on 127.0.0.1 never receives the credential, and the app keeps working across reloads', async ({ page }) => {
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toHaveText(path.basename(folder));
  expect.soft(page.url(), 'the token is taken out of the address bar').not.toContain(tokenOf(served.url));
  await page.reload();
  await expect(page.getByTestId('folder-name')).toHaveText(path.basename(folder));

  await page.goto(`${otherOrigin}/`);
  await expect(page).toHaveTitle('Another local app');
  const readable = await page.evaluate(async () => {
    await fetch('/probe', { credentials: 'include' });
    return document.cookie;
  });
  await page.goto(`${otherOrigin}/after-history`);

  expect(recorded.length).toBeGreaterThanOrEqual(3);
  for (const { url, headers } of recorded) {
    expect.soft(headers.cookie, `cookie sent with ${url}`).toBeUndefined();
    expect.soft(JSON.stringify({ url, headers }), `credential sent with ${url}`).not.toContain(tokenOf(served.url));
  }
  expect(readable).toBe('');

  // Replaying everything the other server saw, with a forged Origin, does not open the socket.
  const socketUrl = `${hostOrigin().replace('http:', 'ws:')}/ws`;
  for (const { headers } of recorded) {
    const replayed = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    expect(await tryOpen(socketUrl, { ...replayed, host: new URL(served.url).host, origin: hostOrigin() })).toBe('refused');
  }
});

test('a socket with a forged Origin and no or a wrong token is refused; a foreign page cannot open one at all', async ({ page }) => {
  const socketUrl = `${hostOrigin().replace('http:', 'ws:')}/ws`;
  expect(await tryOpen(socketUrl, { origin: hostOrigin() })).toBe('refused');
  expect(await tryOpen(`${socketUrl}?token=not-the-token`, { origin: hostOrigin() })).toBe('refused');
  expect(await tryOpen(`${socketUrl}?token=${tokenOf(served.url)}`, { origin: otherOrigin })).toBe('refused');
  expect(await tryOpen(`${socketUrl}?token=${tokenOf(served.url)}`, { origin: hostOrigin() })).toBe('open');

  // Chromium itself, on another local origin right after the app was opened in the same browser.
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toBeVisible();
  await page.goto(`${otherOrigin}/`);
  const outcome = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(url);
        socket.onopen = () => resolve('open');
        socket.onerror = () => resolve('refused');
      }),
    socketUrl,
  );
  expect(outcome).toBe('refused');
});

test('the page without its token says how to get in, and serves no data', async ({ page }) => {
  await page.goto(`${hostOrigin()}/`);
  await expect(page.getByText('open the URL it prints', { exact: false })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/browser-host-no-token.png' });
});
