import { useEffect, useState } from 'react';
import type { RecentFolder } from '../../../engine/contract/index.js';
import { useWorkbench } from '../store/StoreContext.js';
import { formatAge } from './formatAge.js';

/** Shown in the desktop app while no folder is open. */
export function StartScreen({ onOpenSettings }: { onOpenSettings: () => void }) {
  const canPick = useWorkbench((state) => state.host?.canPickFolder ?? false);
  const pickFolder = useWorkbench((state) => state.pickFolder);
  const openFolder = useWorkbench((state) => state.openFolder);
  const loadRecent = useWorkbench((state) => state.loadRecentFolders);
  const [recent, setRecent] = useState<RecentFolder[]>([]);

  useEffect(() => {
    void loadRecent().then(setRecent);
  }, [loadRecent]);

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
      {recent.length > 0 && (
        <section aria-labelledby="recent-heading" className="recent">
          <h2 id="recent-heading">Recent folders</h2>
          <ul>
            {recent.map((entry) => (
              <li key={entry.folder}>
                <button type="button" className="recent-item" onClick={() => void openFolder(entry.folder)}>
                  <span className="recent-name">{entry.name}</span>
                  <span className="muted recent-path">{entry.folder}</span>
                  <span className="muted">{formatAge(entry.lastOpened)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
