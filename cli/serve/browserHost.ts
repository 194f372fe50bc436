import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { createDispatch, socketPath } from '../../engine/contract/index.js';
import { AllowedCommands, FolderChecks, hostEnvironment, noKeyStorage, openWorkbench, PromptCacheKeys, RecentFolders, SettingsStore, userMcp } from '../../engine/index.js';
import { AccessControl } from './accessControl.js';
import { browserHandlers, browserKeyNote } from './browserHandlers.js';
import { bridgeSocket } from './socketBridge.js';
import { sendText, serveStatic } from './staticFiles.js';

export interface BrowserHostOptions {
  folder: string;
  /** 0 picks a free port. */
  port?: number;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  configDir: string;
  env?: NodeJS.ProcessEnv;
}

export interface BrowserHost {
  /** The URL to open, token included (in the fragment, which the browser never sends). */
  url: string;
  port: number;
  folder: string;
  close(): Promise<void>;
}

/**
 * The largest message a page may send. Legitimate ones are small JSON requests; the largest are a plan
 * edit or an approval whose arguments the user edited (a whole file's content), far below this. A
 * bigger message closes that socket with 1009 (message too big); the host keeps serving.
 */
export const maxMessageBytes = 4 * 1024 * 1024;

/**
 * Serves the renderer on 127.0.0.1 and bridges it to an engine over a WebSocket, so the real UI runs
 * in any browser. Opening the folder (and taking its lock) happens first: a folder that cannot be
 * opened fails here with the engine's message.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const settings = new SettingsStore({ configDir: options.configDir, cipher: noKeyStorage(browserKeyNote), env: options.env ?? hostEnvironment() });
  const mcp = userMcp(options.configDir, noKeyStorage(browserKeyNote));
  const workbench = await openWorkbench(options.folder, {
    llmSettings: () => settings.llmSettings(),
    approvals: () => settings.approvalSettings(),
    allowedCommands: new AllowedCommands(options.configDir),
    folderChecks: new FolderChecks(options.configDir),
    promptCacheKeys: new PromptCacheKeys(options.configDir),
    mcp: mcp.workbenchOptions(),
    env: options.env ?? hostEnvironment(),
  });
  const recent = new RecentFolders(options.configDir);
  const dispatch = createDispatch(browserHandlers(workbench, settings, recent, mcp));
  const rendererDir = path.resolve(options.rendererDir);

  const server = createServer();
  try {
    await listen(server, options.port ?? 0);
  } catch (error) {
    await workbench.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const access = new AccessControl(port);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const refusal = access.refuseRequest(request);
    if (refusal) return sendText(response, 403, `Forbidden: ${refusal}.`);
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, 'Method not allowed');
    const url = requestUrl(request);
    if (!url) return sendText(response, 400, 'Bad request');
    void serveStatic(rendererDir, url.pathname, response);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a peer that resets mid-handshake must not take the host down
    const url = requestUrl(request);
    const refusal = url?.pathname !== socketPath ? 'not found' : access.refuseSocket(request, url);
    if (refusal) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nForbidden: ${refusal}.\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => bridgeSocket({ socket: ws, dispatch, subscribe: (listener) => workbench.subscribe(listener) }));
  });
  // Once listening, an error is about one connection (a refused accept, say), never a reason to stop.
  server.on('error', (error) => process.stderr.write(`rpi-workbench serve: ${error.message}\n`));
  await recent.add(workbench.folder).catch(() => undefined); // a read-only config dir must not stop serving

  return {
    url: access.pageUrl,
    port,
    folder: workbench.folder,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workbench.close();
    },
  };
}

/** The request's URL, or null for a request target no URL parser accepts (`GET http://[ HTTP/1.1`). */
function requestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', 'http://127.0.0.1');
  } catch {
    return null;
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} is already in use: pick another with --port, or omit it for a free one.`) : error),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
