import { useEffect, useRef, useState } from 'react';

/**
 * Shows a <dialog> as a modal once it mounts (Esc closes it through its onClose), and gives focus back to
 * what had it before once it unmounts: these dialogs close by leaving the page, which, unlike
 * dialog.close(), restores no focus by itself. Only while focus is still in the dialog or nowhere: after
 * Esc the browser has already given it back, and a Tab pressed before the dialog leaves the page has moved
 * it on — taking it back then would undo the user's key.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [opener] = useState(() => document.activeElement);
  useEffect(() => {
    const shown = dialog.current;
    if (shown && !shown.open) shown.showModal();
    return () => {
      const focused = document.activeElement;
      const lost = focused === null || focused === document.body || (shown?.contains(focused) ?? false);
      if (opener instanceof HTMLElement && lost) opener.focus();
    };
  }, [opener]);
  return dialog;
}
