import { browserHandlers } from '../../cli/serve/browserHandlers.js';
import { requestsOver, type WorkbenchBridge } from '../../engine/contract/bridge.js';
import { createDispatch, type Dispatch, type WorkbenchEvent } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { RecentFolders, SettingsStore, noKeyStorage } from '../../engine/settings/index.js';

/**
 * A renderer bridge wired straight to a host's dispatcher, built the same way as the preload's and
 * the socket's: component tests run against real handlers without a transport.
 */
export function dispatchBridge(dispatch: Dispatch, subscribe: (listener: (event: WorkbenchEvent) => void) => () => void): WorkbenchBridge {
  return { request: requestsOver(dispatch), onEvent: subscribe };
}

/**
 * The bridge of a page the browser host serves on `workbench`, over that host's real handlers, with its
 * settings and recent folders in `configDir` and no keychain.
 */
export function browserHostBridge(workbench: Workbench, configDir: string): WorkbenchBridge {
  const settings = new SettingsStore({ configDir, cipher: noKeyStorage('no keychain here'), env: {} });
  const dispatch = createDispatch(browserHandlers(workbench, settings, new RecentFolders(configDir)));
  return dispatchBridge(dispatch, (listener) => workbench.subscribe(listener));
}
