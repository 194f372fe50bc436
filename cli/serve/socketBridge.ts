import type { WebSocket } from 'ws';
import { socketRequestSchema, type Dispatch, type SocketServerMessage, type WorkbenchEvent } from '../../engine/contract/index.js';

export interface SocketBridgeOptions {
  socket: WebSocket;
  dispatch: Dispatch;
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
}

/**
 * Serves one page's socket: requests in, responses and the workbench's events out. A frame the
 * protocol forbids (too big, invalid UTF-8, a reserved opcode) makes ws close this socket with the
 * standard code (1009, 1007, 1002) and report an 'error' here, which must be listened to: unheard, it
 * would stop the whole host.
 */
export function bridgeSocket({ socket, dispatch, subscribe }: SocketBridgeOptions): void {
  const send = (message: SocketServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const unsubscribe = subscribe((event) => send({ type: 'event', event }));
  socket.on('close', unsubscribe);
  socket.on('error', () => undefined); // ws closes the socket itself, with the code that says why
  socket.on('message', (data, isBinary) => {
    const request = isBinary ? null : parseRequest(data.toString());
    if (request === null || 'error' in request) {
      send({ type: 'error', error: request?.error ?? 'binary frames are not accepted' });
      return;
    }
    void dispatch(request.channel, request.payload).then((response) => send({ type: 'response', id: request.id, response }));
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
