import type { WebSocket } from 'ws';
import { socketRequestSchema, type Dispatch, type SocketServerMessage, type WorkbenchEvent } from '../../engine/contract/index.js';

export interface SocketBridgeOptions {
  socket: WebSocket;
  dispatch: Dispatch;
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
  /** Limits, for tests; the defaults below otherwise. */
  limits?: Partial<SocketLimits>;
}

export interface SocketLimits {
  /** Bytes queued for a page that is not reading them (a frozen tab, a stalled tunnel) before its socket is closed. */
  maxBufferedBytes: number;
  /** Requests of one page being answered at once; more are refused until some are answered. */
  maxRequestsInFlight: number;
  /** How often a page is pinged; one that has not answered the previous ping by the next is cut off. */
  heartbeatMs: number;
}

const defaultLimits: SocketLimits = { maxBufferedBytes: 16 * 1024 * 1024, maxRequestsInFlight: 64, heartbeatMs: 30_000 };

/**
 * Serves one page's socket: requests in, responses and the workbench's events out. A frame the
 * protocol forbids (too big, invalid UTF-8, a reserved opcode) makes ws close this socket with the
 * standard code (1009, 1007, 1002) and report an 'error' here, which must be listened to: unheard, it
 * would stop the whole host. One page cannot grow the host without bound: what waits to be sent to it is
 * capped (past it, the socket is cut off: the page says the host is lost, and a reload draws it afresh), so are its requests being
 * answered, and a page that stops answering pings (a dead peer, a half-open connection) is cut off.
 */
export function bridgeSocket({ socket, dispatch, subscribe, limits: given = {} }: SocketBridgeOptions): void {
  const limits = { ...defaultLimits, ...given };
  let inFlight = 0;
  const send = (message: SocketServerMessage) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > limits.maxBufferedBytes) {
      // Cut off at once: a closing handshake would wait behind all that is queued, for ws's 30 s timeout.
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(message));
  };
  const unsubscribe = subscribe((event) => send({ type: 'event', event }));
  let answered = true;
  const heartbeat = setInterval(() => {
    if (!answered) return socket.terminate();
    answered = false;
    socket.ping();
  }, limits.heartbeatMs);
  heartbeat.unref();
  socket.on('pong', () => (answered = true));
  socket.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
  socket.on('error', () => undefined); // ws closes the socket itself, with the code that says why
  socket.on('message', (data, isBinary) => {
    const request = isBinary ? null : parseRequest(data.toString());
    if (request === null || 'error' in request) {
      send({ type: 'error', error: request?.error ?? 'binary frames are not accepted' });
      return;
    }
    if (inFlight >= limits.maxRequestsInFlight) {
      send({ type: 'response', id: request.id, response: { ok: false, error: `${request.channel}: too many requests at once (${limits.maxRequestsInFlight}); wait for some to be answered` } });
      return;
    }
    inFlight += 1;
    void dispatch(request.channel, request.payload)
      .then((response) => send({ type: 'response', id: request.id, response }))
      .finally(() => (inFlight -= 1));
  });
}

function parseRequest(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'frame is not valid JSON' };
  }
  const parsed = socketRequestSchema.safeParse(json);
  return parsed.success ? parsed.data : { error: 'frame must be {"type":"request","id":<integer>,"channel":<string>,"payload":<object>}' };
}
