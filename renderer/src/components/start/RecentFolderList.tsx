import { useEffect, useState } from 'react';
import type { RecentFolder } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { formatAge } from '../formatAge.js';

/** The folders opened lately, newest first, each with when it was last opened. */
export function RecentFolderList() {
  const openFolder = useWorkbench((state) => state.openFolder);
  const loadRecent = useWorkbench((state) => state.loadRecentFolders);
  const [recent, setRecent] = useState<RecentFolder[]>([]);

  useEffect(() => {
    let current = true;
    void loadRecent().then((folders) => current && setRecent(folders));
    return () => {
      current = false;
    };
  }, [loadRecent]);

  if (recent.length === 0) return null;
  return (
    <section aria-labelledby="recent-heading" className="recent">
      <h2 id="recent-heading">Recent folders</h2>
      <ul>
        {recent.map((entry) => (
          <li key={entry.folder}>
            <button type="button" className="recent-item" onClick={() => void openFolder(entry.folder)} data-testid="recent-folder">
              <span className="recent-name">{entry.name}</span>
              <span className="muted recent-path">{entry.folder}</span>
              <time className="muted" dateTime={new Date(entry.lastOpened).toISOString()} title={new Date(entry.lastOpened).toLocaleString()}>
                {formatAge(entry.lastOpened)}
              </time>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
