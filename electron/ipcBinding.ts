import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { requestChannels, type Dispatch, type Result } from '../engine/contract/index.js';

export interface IpcBindingOptions {
  /** The dispatch of the window that owns `sender`, or null when it is not one of our windows. */
  dispatchFor(sender: WebContents): Dispatch | null;
  isTrusted(url: string): boolean;
}

/**
 * Maps every contract channel onto `ipcMain.handle`. A request is answered only when it comes from the
 * main frame of one of our windows showing one of our pages; the window's dispatch then validates the
 * payload. Returns a function that removes the handlers.
 */
export function bindIpc(options: IpcBindingOptions): () => void {
  for (const channel of requestChannels) {
    ipcMain.handle(channel, (event, payload: unknown) => answer(options, event, channel, payload));
  }
  return () => {
    for (const channel of requestChannels) ipcMain.removeHandler(channel);
  };
}

async function answer(
  options: IpcBindingOptions,
  event: IpcMainInvokeEvent,
  channel: string,
  payload: unknown,
): Promise<Result<unknown>> {
  const refusal = checkSender(options, event);
  if (refusal) {
    console.warn(`Refused ${channel} request: ${refusal}`);
    return { ok: false, error: `${channel}: refused: ${refusal}` };
  }
  const dispatch = options.dispatchFor(event.sender);
  if (!dispatch) return { ok: false, error: `${channel}: refused: the request does not come from a workbench window` };
  return dispatch(channel, payload);
}

function checkSender(options: IpcBindingOptions, event: IpcMainInvokeEvent): string | null {
  const frame = event.senderFrame;
  if (!frame) return 'the sending page is gone';
  if (frame.parent !== null || frame.frameToken !== event.sender.mainFrame.frameToken) {
    return 'requests are accepted only from the main frame';
  }
  if (!options.isTrusted(frame.url)) return `requests are not accepted from ${frame.url}`;
  return null;
}
