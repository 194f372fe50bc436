import type { HostInfo, RequestHandlers } from '../../engine/contract/index.js';
import { requestHandlers, type RecentFolders, type SettingsStore, type UserMcp, type Workbench } from '../../engine/index.js';

export const browserKeyNote =
  'The browser host cannot store an API key: set OPENAI_API_KEY in the environment of `rpi-workbench serve` instead.';

/** The browser host serves exactly one folder, fixed on its command line. */
export function browserHandlers(workbench: Workbench, settings: SettingsStore, recent: RecentFolders, mcp?: UserMcp): RequestHandlers {
  const info: HostInfo = {
    kind: 'browser',
    canPickFolder: false,
    canStoreApiKey: false,
    apiKeyStorageNote: browserKeyNote,
    folder: workbench.folder,
  };
  const otherFolder = (folder: string) =>
    new Error(`this browser host serves ${workbench.folder} only; run \`rpi-workbench serve ${folder}\` to work on another folder`);
  return requestHandlers(
    { settings, recent, currentWorkbench: () => workbench, ...(mcp ? { mcp } : {}) },
    {
      'host:info': async () => info,
      'folders:pick': async () => {
        throw otherFolder('<folder>');
      },
      'folders:open': async ({ folder }) => {
        if (folder !== workbench.folder) throw otherFolder(folder);
        return workbench.request('workbench:snapshot');
      },
    },
  );
}
