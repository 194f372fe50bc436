import { useEffect } from 'react';
import { useWorkbench } from '../../store/StoreContext.js';
import { focusComposer } from '../useDesktopCommands.js';
import { isNewConversationKey } from './newConversationKeys.js';

/** The browser host's Alt+N (the browser keeps Ctrl+N for a new window): a new conversation, the request box focused. */
export function useNewConversationKey(): void {
  const isBrowser = useWorkbench((state) => state.host?.kind === 'browser');
  const hasFolder = useWorkbench((state) => state.folder !== null);
  const newConversation = useWorkbench((state) => state.newConversation);
  useEffect(() => {
    if (!isBrowser || !hasFolder) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isNewConversationKey(event)) return;
      event.preventDefault();
      void newConversation().then(focusComposer);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isBrowser, hasFolder, newConversation]);
}
