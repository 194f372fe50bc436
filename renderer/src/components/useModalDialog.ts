import { useEffect, useRef, useState } from 'react';

/**
 * Shows a <dialog> as a modal once it mounts (Esc closes it through its onClose), and gives focus back to
 * what had it before once it unmounts: these dialogs close by leaving the page, which, unlike
 * dialog.close(), restores no focus by itself.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [opener] = useState(() => document.activeElement);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
    return () => {
      if (opener instanceof HTMLElement) opener.focus();
    };
  }, [opener]);
  return dialog;
}
