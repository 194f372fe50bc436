import type { IpcRenderer, IpcRendererEvent, WebUtils } from 'electron';
import { requestsOver, type WorkbenchBridge } from '../engine/contract/bridge.js';
import { commandChannel, eventChannel, isDesktopCommand } from '../engine/contract/channels.js';
import type { WorkbenchEvent } from '../engine/contract/events.js';

export interface BridgeDeps {
  ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;
  webUtils: Pick<WebUtils, 'getPathForFile'>;
}

/**
 * Builds the bridge from the contract's channel list: one function per request channel, event and menu
 * command subscriptions, and the path of a dropped file. The page gets neither ipcRenderer, nor the
 * IpcRendererEvent of a message, nor a way to name an arbitrary channel.
 */
export function createBridge({ ipc, webUtils }: BridgeDeps): WorkbenchBridge {
  const listen = (channel: string, deliver: (payload: unknown) => void) => {
    const forward = (_event: IpcRendererEvent, payload: unknown) => deliver(payload);
    ipc.on(channel, forward);
    return () => {
      ipc.removeListener(channel, forward);
    };
  };
  return {
    request: requestsOver((channel, payload) => ipc.invoke(channel, payload)),
    // Events come from our own main process, which emits only contract events; they are not re-validated.
    onEvent: (listener) => listen(eventChannel, (payload) => listener(payload as WorkbenchEvent)),
    onCommand: (listener) =>
      listen(commandChannel, (payload) => {
        if (isDesktopCommand(payload)) listener(payload);
      }),
    pathForFile(file) {
      try {
        return webUtils.getPathForFile(file) || null;
      } catch {
        // Not a File (webUtils throws): there is no path to give.
        return null;
      }
    },
  };
}
