import type { ContextItem } from './model.js';

/**
 * How an attached item is named wherever it is listed (chips, history, the CLI): a file by its path, a
 * folder by its path and "/", a note by its first words. Kept free of zod so the page can use it.
 */
export function contextItemLabel(item: ContextItem, { noteChars = 40 }: { noteChars?: number } = {}): string {
  if (item.kind === 'file') return item.path;
  if (item.kind === 'folder') return item.path === '.' ? './' : `${item.path}/`;
  const words = item.text.trim().replace(/\s+/g, ' ');
  return `note: ${words.length > noteChars ? `${words.slice(0, noteChars - 1)}…` : words}`;
}
