import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { eventChannel, requestChannels, type RequestChannel } from '../engine/contract/channels.js';
import type { WorkbenchEvent } from '../engine/contract/events.js';
import type { RequestPayload, Response } from '../engine/contract/requests.js';

/** What the page sees as `window.workbench`; the same shape as renderer/src/bridge/types.ts. */
export interface WorkbenchBridge {
  request: { [C in RequestChannel]: (payload: RequestPayload<C>) => Promise<Response<C>> };
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
}

/**
 * Builds the bridge from the contract's channel list: one function per request channel and an event
 * subscription. The page gets neither ipcRenderer nor a way to name an arbitrary channel.
 */
export function createBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): WorkbenchBridge {
  const request = Object.fromEntries(
    requestChannels.map((channel) => [channel, (payload: unknown) => ipc.invoke(channel, payload)]),
  ) as WorkbenchBridge['request'];
  return {
    request,
    onEvent(listener) {
      const forward = (_event: IpcRendererEvent, payload: WorkbenchEvent) => listener(payload);
      ipc.on(eventChannel, forward);
      return () => {
        ipc.removeListener(eventChannel, forward);
      };
    },
  };
}
