import type { RequestChannel, RequestPayload, Response, WorkbenchEvent } from '../../../engine/contract/index.js';

/**
 * The renderer's only way out: one typed function per request channel, and a subscription to events.
 * Electron's preload exposes it as `window.workbench`; in a browser it is built over the WebSocket.
 */
export interface WorkbenchBridge {
  request: { [C in RequestChannel]: (payload: RequestPayload<C>) => Promise<Response<C>> };
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
}

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}
