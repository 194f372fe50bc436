import { contextItemLimits } from '../../../../engine/contract/contextItemLimits.js';
import type { ContextItem } from '../../../../engine/contract/index.js';

/** A pasted text this long is offered as a note rather than left in the request. */
export const longPaste = { chars: 1000, lines: 20 } as const;

export type AddResult = { items: ContextItem[]; refused: null } | { items: readonly ContextItem[]; refused: string };

/** The items with one more, unless it is there already or the request is full (then why not). */
export function addItem(items: readonly ContextItem[], item: ContextItem): AddResult {
  if (items.some((known) => sameItem(known, item))) return { items, refused: 'It is attached already.' };
  if (items.length >= contextItemLimits.maxItems) return { items, refused: `At most ${contextItemLimits.maxItems} items can be attached to one request.` };
  if (item.kind === 'note' && item.text.length > contextItemLimits.maxNoteChars) {
    return { items, refused: `A note can be at most ${contextItemLimits.maxNoteChars.toLocaleString('en-US')} characters.` };
  }
  return { items: [...items, item], refused: null };
}

export function removeItem(items: readonly ContextItem[], index: number): ContextItem[] {
  return items.filter((_, at) => at !== index);
}

export function sameItem(a: ContextItem, b: ContextItem): boolean {
  if (a.kind === 'note' || b.kind === 'note') return a.kind === 'note' && b.kind === 'note' && a.text === b.text;
  return a.kind === b.kind && a.path === b.path;
}

/** Whether a paste is long enough to offer as a note. */
export function isLongPaste(text: string): boolean {
  return text.length >= longPaste.chars || text.split('\n').length >= longPaste.lines;
}

/**
 * A dropped file's path relative to the open folder ('/' separators), or null when it is outside it.
 * Both are absolute paths as the host gives them (either separator, any drive letter case on Windows).
 */
export function pathInFolder(folder: string, file: string): string | null {
  const normalise = (value: string) => value.replace(/\\/g, '/').replace(/\/+$/, '');
  const root = normalise(folder);
  const target = normalise(file);
  const windows = /^[A-Za-z]:\//.test(root);
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (same(target, root)) return '.';
  const prefix = `${root}/`;
  if (!same(target.slice(0, prefix.length), prefix)) return null;
  const relative = target.slice(prefix.length);
  return relative.split('/').includes('..') ? null : relative;
}
