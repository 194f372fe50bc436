import { useEffect } from 'react';
import { useWorkbench } from '../store/StoreContext.js';
import { composerInputId } from './Composer.js';

/** Carries out the desktop menu's commands: open Settings, stop the run, focus the request box. */
export function useDesktopCommands(openSettings: () => void): void {
  const onDesktopCommand = useWorkbench((state) => state.onDesktopCommand);
  const cancel = useWorkbench((state) => state.cancel);
  const running = useWorkbench((state) => state.running);
  useEffect(
    () =>
      onDesktopCommand((command) => {
        if (command === 'open-settings') openSettings();
        else if (command === 'stop-run') {
          if (running) void cancel();
        } else document.getElementById(composerInputId)?.focus();
      }),
    [onDesktopCommand, cancel, running, openSettings],
  );
}
