import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserHost, type BrowserHost } from '../../../cli/serve/browserHost.js';
import type { SocketServerMessage } from '../../../engine/contract/index.js';
import { openWorkbench } from '../../../engine/index.js';
import { startFakeLlm } from '../../support/fakeLlm/index.js';
import { call, planText, say } from '../../support/rpiScript.js';

let root: string;
let folder: string;
let host: BrowserHost;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rpi-host-'));
  folder = path.join(root, 'project');
  const rendererDir = path.join(root, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await mkdir(folder);
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>RPI</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(root, 'secret.txt'), 'outside the renderer');
  await writeFile(path.join(folder, 'a.txt'), 'a');
  host = await startBrowserHost({ folder, rendererDir, configDir: path.join(root, 'config'), env: {} });
});

afterEach(async () => {
  await host.close();
  await rm(root, { recursive: true, force: true });
});

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path: pathAndQuery, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const token = () => new URLSearchParams(new URL(host.url).hash.slice(1)).get('token') ?? '';
const origin = () => `http://127.0.0.1:${host.port}`;

function connect(query: string, headers: Record<string, string>): Promise<{ socket: WebSocket; messages: SocketServerMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws${query}`, { headers });
    const messages: SocketServerMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as SocketServerMessage));
    socket.once('open', () => resolve({ socket, messages }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused with HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

/** The first message received (so far or next) that matches; ids tie responses to requests. */
function waitFor(socket: WebSocket, messages: SocketServerMessage[], match: (message: SocketServerMessage) => boolean): Promise<SocketServerMessage> {
  return new Promise((resolve) => {
    const check = () => {
      const found = messages.find(match);
      if (!found) return;
      socket.off('message', check);
      resolve(found);
    };
    socket.on('message', check);
    check();
  });
}

const response = (id: number) => (message: SocketServerMessage) => message.type === 'response' && message.id === id;

describe('browser host over HTTP', () => {
  it('prints a loopback URL carrying a long random token in its fragment, which browsers never send', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);
  });

  it('serves the renderer, which holds no secret, without the token, with a strict CSP and no cookie', async () => {
    for (const file of ['/', '/assets/app.js']) {
      const reply = await get(file);
      expect(reply.status, file).toBe(200);
      expect(String(reply.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(reply.headers['set-cookie'], file).toBeUndefined();
    }
    expect((await get('/')).body).toContain('<title>RPI</title>');
    expect((await get('/assets/app.js')).headers['content-type']).toContain('text/javascript');
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const reply = await get('/', { host: `evil.example:${host.port}` });
    expect(reply.status).toBe(403);
    expect(reply.body).toContain('Host');
  });

  it('never serves files outside the renderer folder', async () => {
    for (const attempt of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/%00']) {
      const reply = await get(attempt);
      expect(reply.status, attempt).toBe(404);
      expect(reply.body).not.toContain('outside the renderer');
    }
  });
});

describe('browser host over WebSocket', () => {
  it('refuses a socket without the token, with a wrong one, from a foreign Origin or Host', async () => {
    await expect(connect('', { origin: origin() })).rejects.toThrow('HTTP 403');
    // One character off (never the same one: a token may end in any letter).
    const wrong = `${token().slice(0, -1)}${token().endsWith('x') ? 'y' : 'x'}`;
    await expect(connect(`?token=${wrong}`, { origin: origin() })).rejects.toThrow('HTTP 403');
    await expect(connect(`?token=${token()}`, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(`?token=${token()}`, { origin: `http://127.0.0.1:${host.port + 1}` })).rejects.toThrow('HTTP 403');
    await expect(connect(`?token=${token()}`, {})).rejects.toThrow('HTTP 403');
    await expect(connect(`?token=${token()}`, { origin: origin(), host: `evil.example:${host.port}` })).rejects.toThrow('HTTP 403');
  });

  it('never takes the token from a cookie: cookies reach every port of 127.0.0.1', async () => {
    const cookie = `rpi_workbench_${host.port}=${token()}; token=${token()}`;
    await expect(connect('', { origin: origin(), cookie })).rejects.toThrow('HTTP 403');
  });

  it('answers requests through the contract, validation errors included', async () => {
    const { socket, messages } = await connect(`?token=${token()}`, { origin: origin() });
    socket.send(JSON.stringify({ type: 'request', id: 1, channel: 'workbench:snapshot', payload: {} }));
    const snapshot = await waitFor(socket, messages, response(1));
    expect(snapshot).toMatchObject({ type: 'response', id: 1, response: { ok: true, value: { name: 'project', fileCount: 1 } } });

    socket.send(JSON.stringify({ type: 'request', id: 2, channel: 'session:send', payload: { prompt: '' } }));
    expect(await waitFor(socket, messages, response(2))).toEqual({
      type: 'response',
      id: 2,
      response: { ok: false, error: 'session:send: prompt must be a non-empty string' },
    });

    socket.send(JSON.stringify({ type: 'request', id: 3, channel: 'folders:open', payload: { folder: '/elsewhere' } }));
    const other = await waitFor(socket, messages, response(3));
    expect(other).toMatchObject({ response: { ok: false, error: expect.stringContaining('serves') } });
    socket.close();
  });

  it('runs a request end to end: settings over the socket, events pushed to the page, the summary saved', async () => {
    const llm = await startFakeLlm({ script: [say('research'), say(planText('Note')), call('write_file', { path: 'note.txt', content: 'hi\n' }), say('done'), say('Wrote note.txt.')] });
    try {
      const { socket, messages } = await connect(`?token=${token()}`, { origin: origin() });
      socket.send(JSON.stringify({ type: 'request', id: 1, channel: 'settings:set', payload: { baseUrl: llm.baseUrl, model: 'fake-model', toolMode: 'native', approvals: { files: 'auto' } } }));
      expect(await waitFor(socket, messages, response(1))).toMatchObject({ response: { ok: true } });
      socket.send(JSON.stringify({ type: 'request', id: 2, channel: 'session:send', payload: { prompt: 'Write a note' } }));
      expect(await waitFor(socket, messages, response(2))).toMatchObject({ response: { ok: true, value: { messageId: expect.any(String) } } });
      socket.send(JSON.stringify({ type: 'request', id: 3, channel: 'session:resume', payload: {} }));
      expect(await waitFor(socket, messages, response(3))).toMatchObject({ response: { ok: false, error: expect.stringContaining('already in progress') } });

      const finished = await waitFor(socket, messages, (message) => message.type === 'event' && message.event.type === 'run-finished');
      expect(finished).toMatchObject({ event: { status: 'done' } });
      const kinds = messages.flatMap((message) => (message.type === 'event' ? [message.event.type] : []));
      expect(kinds).toEqual(expect.arrayContaining(['run-started', 'phase-started', 'implement-progress', 'tool-finished', 'summary-delta', 'message-added']));
      expect(await readFile(path.join(folder, 'note.txt'), 'utf8')).toBe('hi\n');
      socket.send(JSON.stringify({ type: 'request', id: 4, channel: 'workbench:snapshot', payload: {} }));
      expect(await waitFor(socket, messages, response(4))).toMatchObject({
        response: { ok: true, value: { running: false, conversation: [{ text: 'Write a note' }, { role: 'assistant', text: 'Wrote note.txt.' }] } },
      });
      socket.close();
    } finally {
      await llm.close();
    }
  });

  it('answers a frame that is not a request with an error and stays open', async () => {
    const { socket, messages } = await connect(`?token=${token()}`, { origin: origin() });
    socket.send('{not json');
    expect(await waitFor(socket, messages, (message) => message.type === 'error')).toEqual({ type: 'error', error: 'frame is not valid JSON' });
    socket.send(JSON.stringify({ type: 'request', id: 4, channel: 'host:info', payload: {} }));
    expect(await waitFor(socket, messages, response(4))).toMatchObject({ response: { ok: true, value: { kind: 'browser', canStoreApiKey: false } } });
    socket.close();
  });

  it('refuses to store an API key, saying where to put it instead', async () => {
    const { socket, messages } = await connect(`?token=${token()}`, { origin: origin() });
    socket.send(JSON.stringify({ type: 'request', id: 5, channel: 'settings:set', payload: { apiKey: 'sk-secret' } }));
    expect(await waitFor(socket, messages, response(5))).toMatchObject({ response: { ok: false, error: expect.stringContaining('OPENAI_API_KEY') } });
    socket.close();
  });
});

describe('browser host lifecycle', () => {
  it('holds the folder lock while serving and releases it on close', async () => {
    await expect(openWorkbench(folder)).rejects.toThrow('already open');
    await host.close();
    const workbench = await openWorkbench(folder);
    await workbench.close();
    host = await startBrowserHost({ folder, rendererDir: path.join(root, 'renderer'), configDir: path.join(root, 'config'), env: {} });
  });

  it('fails with the engine message for a folder that cannot be opened', async () => {
    await expect(
      startBrowserHost({ folder: path.join(root, 'missing'), rendererDir: path.join(root, 'renderer'), configDir: path.join(root, 'config') }),
    ).rejects.toThrow('Folder not found');
  });

  it('says when the port is taken, and releases the folder it opened', async () => {
    const second = path.join(root, 'second');
    await mkdir(second);
    await expect(
      startBrowserHost({ folder: second, port: host.port, rendererDir: path.join(root, 'renderer'), configDir: path.join(root, 'config') }),
    ).rejects.toThrow(`Port ${host.port} is already in use`);
    const workbench = await openWorkbench(second);
    await workbench.close();
  });
});
