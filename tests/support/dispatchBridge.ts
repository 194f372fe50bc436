import { requestsOver, type WorkbenchBridge } from '../../engine/contract/bridge.js';
import type { Dispatch, WorkbenchEvent } from '../../engine/contract/index.js';

/**
 * A renderer bridge wired straight to a host's dispatcher, built the same way as the preload's and
 * the socket's: component tests run against real handlers without a transport.
 */
export function dispatchBridge(dispatch: Dispatch, subscribe: (listener: (event: WorkbenchEvent) => void) => () => void): WorkbenchBridge {
  return { request: requestsOver(dispatch), onEvent: subscribe };
}
