import { requestChannels, type DesktopCommand, type RequestChannel } from './channels.js';

export type { DesktopCommand };
import type { WorkbenchEvent } from './events.js';
import type { RequestPayload, Response, Result } from './requests.js';

/**
 * What a page talks to: one typed function per request channel, and a subscription to events.
 * Electron's preload exposes it as `window.workbench`; in a browser it runs over the WebSocket.
 * Zod-free (type imports only besides the channel list), so the sandboxed preload can bundle it.
 */
export interface WorkbenchBridge {
  request: { [C in RequestChannel]: (payload: RequestPayload<C>) => Promise<Response<C>> };
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
  /** Desktop only: menu commands the page carries out (the menu's accelerators never reach the page). */
  onCommand?(listener: (command: DesktopCommand) => void): () => void;
  /** Desktop only: the real path of a file or folder dropped on the page (Electron's webUtils.getPathForFile). */
  pathForFile?(file: File): string | null;
}

/** Builds the per-channel request functions over one transport call; no other channel can be named. */
export function requestsOver(invoke: (channel: RequestChannel, payload: unknown) => Promise<Result<unknown>>): WorkbenchBridge['request'] {
  return Object.fromEntries(
    requestChannels.map((channel) => [channel, (payload: unknown) => invoke(channel, payload)]),
  ) as unknown as WorkbenchBridge['request'];
}
