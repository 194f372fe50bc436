import { useEffect } from 'react';
import { useWorkbench } from '../store/StoreContext.js';
import { composerInputId } from './Composer.js';

/** Carries out the desktop menu's commands: open Settings, stop the run, focus the request box, start a conversation. */
export function useDesktopCommands(openSettings: () => void): void {
  const onDesktopCommand = useWorkbench((state) => state.onDesktopCommand);
  const cancel = useWorkbench((state) => state.cancel);
  const running = useWorkbench((state) => state.running);
  const hasFolder = useWorkbench((state) => state.folder !== null);
  const newConversation = useWorkbench((state) => state.newConversation);
  useEffect(
    () =>
      onDesktopCommand((command) => {
        if (command === 'open-settings') openSettings();
        else if (command === 'stop-run') {
          if (running) void cancel();
        } else if (command === 'new-conversation') {
          if (hasFolder) void newConversation().then(focusComposer);
        } else focusComposer();
      }),
    [onDesktopCommand, cancel, running, openSettings, hasFolder, newConversation],
  );
}

/** Puts the caret in the request box. */
export function focusComposer(): void {
  document.getElementById(composerInputId)?.focus();
}
