import { useCallback, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import type { ContextItem } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { addItem, isLongPaste, pathInFolder, removeItem } from './attachments.js';

/** A long paste the user may turn into a note: the text, and where it went in the request box. */
export interface PasteOffer {
  start: number;
  text: string;
}

/**
 * The items attached to the request being written, and the ways to add them besides `@`: files dropped
 * on the box (desktop app: their real paths; inside the folder only), and a long paste offered as a note.
 * `notice` says what was refused, and why.
 */
export function useAttachments() {
  const folder = useWorkbench((state) => state.folder?.path ?? null);
  const folderPathOf = useWorkbench((state) => state.folderPathOf);
  const searchPaths = useWorkbench((state) => state.searchPaths);
  const [items, setItemsState] = useState<readonly ContextItem[]>([]);
  // Mirrors the state at once, so several items added in one go (a drop) each see the ones before.
  const current = useRef<readonly ContextItem[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [pasteOffer, setPasteOffer] = useState<PasteOffer | null>(null);
  const setItems = useCallback((next: readonly ContextItem[]) => {
    current.current = next;
    setItemsState(next);
  }, []);

  const add = useCallback(
    (item: ContextItem) => {
      const result = addItem(current.current, item);
      setItems(result.items);
      setNotice(result.refused);
    },
    [setItems],
  );

  const remove = useCallback(
    (index: number) => {
      setItems(removeItem(current.current, index));
      setNotice(null);
    },
    [setItems],
  );

  const clear = useCallback(() => {
    setItems([]);
    setNotice(null);
    setPasteOffer(null);
  }, [setItems]);

  /** A dropped path is a folder when the engine lists it as one; a dropped folder holds no bytes of its own. */
  const kindOf = useCallback(
    async (relative: string, file: File): Promise<'file' | 'folder'> => {
      const response = await searchPaths(relative);
      const listed = response.ok ? response.value.matches.find((match) => match.path === relative) : undefined;
      return listed?.kind ?? (file.size === 0 && file.type === '' ? 'folder' : 'file');
    },
    [searchPaths],
  );

  const onDrop = useCallback(
    async (event: DragEvent) => {
      if (!event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      // Dropped on the request box, a file is attached: the window's own drop (open a folder) is not for it.
      event.stopPropagation();
      const files = [...event.dataTransfer.files];
      const refused: string[] = [];
      for (const file of files) {
        const real = folderPathOf(file);
        if (real === null) {
          setNotice('Dropping files works in the desktop app. Here, type @ and a name to attach a file or folder of this project.');
          return;
        }
        const relative = folder === null ? null : pathInFolder(folder, real);
        if (relative === null) {
          refused.push(file.name);
          continue;
        }
        add({ kind: relative === '.' ? 'folder' : await kindOf(relative, file), path: relative });
      }
      if (refused.length > 0) setNotice(`Not attached: ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} outside this folder; only files and folders inside it can be attached.`);
    },
    [add, folder, folderPathOf, kindOf],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (event.dataTransfer.types.includes('Files')) event.preventDefault();
  }, []);

  const onPaste = useCallback((event: ClipboardEvent<HTMLTextAreaElement>) => {
    const text = event.clipboardData.getData('text/plain');
    setPasteOffer(isLongPaste(text) ? { start: event.currentTarget.selectionStart, text } : null);
  }, []);

  return { items, notice, pasteOffer, add, remove, clear, setNotice, setPasteOffer, onDrop, onDragOver, onPaste };
}
