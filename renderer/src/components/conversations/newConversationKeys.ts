import type { HostInfo } from '../../../../engine/contract/index.js';

/**
 * The shortcut for a new conversation: Ctrl/Cmd+N is the desktop menu's, while a browser keeps Ctrl+N for
 * a new window, so the browser host's page answers Alt+N.
 */
export function newConversationKeys(kind: HostInfo['kind']): { aria: string; label: string } {
  if (kind === 'electron') return { aria: 'Control+N Meta+N', label: 'Ctrl/Cmd+N' };
  return { aria: 'Alt+N', label: 'Alt+N' };
}

/** Whether a key press is the browser host's Alt+N (on a Mac, Option+N types "˜": the key's code tells). */
export function isNewConversationKey(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'>): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === 'KeyN';
}
