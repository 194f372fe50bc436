import { useWorkbench } from '../store/StoreContext.js';
import { RecentFolderList } from './start/RecentFolderList.js';

/** Shown in the desktop app while no folder is open. */
export function StartScreen({ onOpenSettings }: { onOpenSettings: () => void }) {
  const canPick = useWorkbench((state) => state.host?.canPickFolder ?? false);
  const pickFolder = useWorkbench((state) => state.pickFolder);
  const desktop = useWorkbench((state) => state.host?.kind === 'electron');

  return (
    <main className="start">
      <h1>RPI Workbench</h1>
      <p className="muted">Open a project folder. The agent researches it, plans the change, then implements it step by step.</p>
      <div className="row">
        {canPick && (
          <button type="button" className="button-primary" onClick={() => void pickFolder()}>
            Open folder…
          </button>
        )}
        <button type="button" onClick={onOpenSettings}>
          Settings
        </button>
      </div>
      <p className="muted hint">
        {desktop ? 'You can also drop a folder anywhere on this window.' : 'Opening a folder by dropping it needs the desktop app.'}
      </p>
      <RecentFolderList />
    </main>
  );
}
