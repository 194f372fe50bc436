import { useState } from 'react';
import { useWorkbench } from '../store/StoreContext.js';
import { ChatLog } from './ChatLog.js';
import { Composer } from './Composer.js';
import { ConversationList } from './conversations/ConversationList.js';
import { ResumeBanner } from './ResumeBanner.js';
import { RunPanel } from './run/RunPanel.js';

/** An open folder: its header, its conversations, the chat and composer in the main column, the run view beside them. */
export function WorkbenchView({ onOpenSettings }: { onOpenSettings: () => void }) {
  const folder = useWorkbench((state) => state.folder);
  const warnings = useWorkbench((state) => state.warnings);
  // Only narrow windows fold the run view away; wide ones always show it (see styles.css).
  const [panelOpen, setPanelOpen] = useState(false);
  if (!folder) return null;
  const files = `${folder.fileCount.toLocaleString()} ${folder.fileCount === 1 ? 'file' : 'files'}`;

  return (
    <div className="workbench">
      <header className="topbar">
        <div className="folder" title={folder.path}>
          <h1 className="folder-name" data-testid="folder-name">
            {folder.name}
          </h1>
          <span className="muted folder-path">{folder.path}</span>
        </div>
        <span className="pill" data-testid="file-count">
          {files}
        </span>
        <button type="button" onClick={onOpenSettings} aria-keyshortcuts="Control+,">
          Settings
        </button>
        <button type="button" className="panel-toggle" aria-expanded={panelOpen} aria-controls="run-panel" onClick={() => setPanelOpen(!panelOpen)}>
          {panelOpen ? 'Hide run' : 'Show run'}
        </button>
      </header>
      {warnings.length > 0 && (
        <ul className="banner banner-warning" aria-label="Warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      <ResumeBanner />
      <div className="workbench-body">
        <ConversationList />
        <main className="main-column">
          <ChatLog />
          <Composer />
        </main>
        <aside id="run-panel" className={panelOpen ? 'side-column side-column-open' : 'side-column'} aria-label="Run">
          <RunPanel />
        </aside>
      </div>
    </div>
  );
}
