import { requestsOver } from '../../../engine/contract/bridge.js';
import { socketPath, socketTokenParam, type RequestChannel } from '../../../engine/contract/channels.js';
import type { Result, SocketServerMessage, WorkbenchEvent } from '../../../engine/contract/index.js';
import { takeAccessToken } from './accessToken.js';
import type { WorkbenchBridge } from './types.js';

export interface SocketBridge extends WorkbenchBridge {
  /** Resolves once connected; rejects if the host refuses the socket. */
  ready: Promise<void>;
  onClose(listener: () => void): void;
}

/**
 * The bridge used in a browser: the browser host's WebSocket on the page's own origin, opened with the
 * access token the page was given (see takeAccessToken); without it the host refuses the socket.
 */
export function connectSocketBridge(location: Location = window.location): SocketBridge {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = takeAccessToken({ location, history: window.history, storage: window.sessionStorage }) ?? '';
  const socket = new WebSocket(`${protocol}//${location.host}${socketPath}?${new URLSearchParams({ [socketTokenParam]: token })}`);
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Set<(event: WorkbenchEvent) => void>();
  const closeListeners = new Set<() => void>();
  let nextId = 1;

  const ready = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('The workbench host refused the connection.')), { once: true });
  });
  socket.addEventListener('message', (message) => {
    const frame = JSON.parse(String(message.data)) as SocketServerMessage;
    if (frame.type === 'event') listeners.forEach((listener) => listener(frame.event));
    else if (frame.type === 'response') {
      pending.get(frame.id)?.(frame.response);
      pending.delete(frame.id);
    } else console.error('workbench host:', frame.error);
  });
  socket.addEventListener('close', () => {
    for (const resolve of pending.values()) resolve({ ok: false, error: 'The connection to the workbench host was lost.' });
    pending.clear();
    closeListeners.forEach((listener) => listener());
  });

  const call = async (channel: RequestChannel, payload: unknown): Promise<Result<unknown>> => {
    await ready;
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      socket.send(JSON.stringify({ type: 'request', id, channel, payload }));
    });
  };

  return {
    request: requestsOver(call),
    ready,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
    },
  };
}
