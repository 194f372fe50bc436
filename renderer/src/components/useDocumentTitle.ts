import { useEffect } from 'react';
import { useWorkbench } from '../store/StoreContext.js';

const appName = 'RPI Workbench';

/** The window's title: "<folder name> — RPI Workbench", or the app's name while no folder is open. */
export function useDocumentTitle(): void {
  const name = useWorkbench((state) => state.folder?.name ?? null);
  useEffect(() => {
    document.title = name ? `${name} — ${appName}` : appName;
  }, [name]);
}
