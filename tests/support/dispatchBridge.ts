import { requestChannels, type Dispatch, type WorkbenchEvent } from '../../engine/contract/index.js';
import type { WorkbenchBridge } from '../../renderer/src/bridge/types.js';

/**
 * A renderer bridge wired straight to a host's dispatcher, built from the same channel list as the
 * preload and the socket bridge: component tests run against real handlers without a transport.
 */
export function dispatchBridge(dispatch: Dispatch, subscribe: (listener: (event: WorkbenchEvent) => void) => () => void): WorkbenchBridge {
  const request = Object.fromEntries(
    requestChannels.map((channel) => [channel, (payload: unknown) => dispatch(channel, payload)]),
  ) as unknown as WorkbenchBridge['request'];
  return { request, onEvent: subscribe };
}
