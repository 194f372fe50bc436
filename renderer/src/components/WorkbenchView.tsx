import { useWorkbench } from '../store/StoreContext.js';
import { ChatLog } from './ChatLog.js';
import { Composer } from './Composer.js';

export function WorkbenchView({ onOpenSettings }: { onOpenSettings: () => void }) {
  const folder = useWorkbench((state) => state.folder);
  const warnings = useWorkbench((state) => state.warnings);
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
      </header>
      {warnings.length > 0 && (
        <ul className="banner banner-warning" aria-label="Warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      <ChatLog />
      <Composer />
    </div>
  );
}
