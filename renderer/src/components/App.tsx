import { useCallback, useEffect, useState } from 'react';
import { useWorkbench } from '../store/StoreContext.js';
import { ErrorBanner } from './ErrorBanner.js';
import { SettingsDialog } from './SettingsDialog.js';
import { DropLayer } from './start/DropLayer.js';
import { StartScreen } from './StartScreen.js';
import { useNewConversationKey } from './conversations/useNewConversationKey.js';
import { useDesktopCommands } from './useDesktopCommands.js';
import { useDocumentTitle } from './useDocumentTitle.js';
import { WorkbenchView } from './WorkbenchView.js';

export function App() {
  const connection = useWorkbench((state) => state.connection);
  const hasFolder = useWorkbench((state) => state.folder !== null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  useDocumentTitle();
  useDesktopCommands(openSettings);
  useNewConversationKey();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setSettingsOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="app">
      {connection === 'lost' && (
        <div className="banner banner-error" role="alert">
          The workbench host is not reachable, or refused this page. Restart it if it stopped, then open the URL it prints.
        </div>
      )}
      <ErrorBanner />
      <DropLayer />
      {connection === 'connecting' ? (
        <p className="centered muted" role="status">
          Connecting…
        </p>
      ) : hasFolder ? (
        <WorkbenchView onOpenSettings={openSettings} />
      ) : (
        <StartScreen onOpenSettings={openSettings} />
      )}
      {settingsOpen && <SettingsDialog onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
