import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { requestsOver, type WorkbenchBridge } from '../engine/contract/bridge.js';
import { eventChannel } from '../engine/contract/channels.js';
import type { WorkbenchEvent } from '../engine/contract/events.js';

/**
 * Builds the bridge from the contract's channel list: one function per request channel and an event
 * subscription. The page gets neither ipcRenderer nor a way to name an arbitrary channel.
 */
export function createBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): WorkbenchBridge {
  return {
    request: requestsOver((channel, payload) => ipc.invoke(channel, payload)),
    onEvent(listener) {
      const forward = (_event: IpcRendererEvent, payload: WorkbenchEvent) => listener(payload);
      ipc.on(eventChannel, forward);
      return () => {
        ipc.removeListener(eventChannel, forward);
      };
    },
  };
}
