import { useEffect, useState } from 'react';
import { useWorkbench } from '../../store/StoreContext.js';

export interface FolderDrop {
  /** A drag with files is over the window. */
  dragging: boolean;
  /** The drag is over the request box, where a drop attaches files instead of opening a folder. */
  overAttach: boolean;
  /** Why the last drop opened nothing, until dismissed. */
  note: string | null;
  dismissNote(): void;
}

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Opens a folder dropped anywhere on the window. Only the desktop app can tell a dropped item's real
 * path; elsewhere the drop is refused with a note saying so.
 */
export function useFolderDrop(): FolderDrop {
  const folderPathOf = useWorkbench((state) => state.folderPathOf);
  const openFolder = useWorkbench((state) => state.openFolder);
  const host = useWorkbench((state) => state.host);
  const [dragging, setDragging] = useState(false);
  const [overAttach, setOverAttach] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    let depth = 0;
    const onDragEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDragOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setOverAttach(event.target instanceof Element && event.target.closest('[data-drop="attach"]') !== null);
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      const file = event.dataTransfer?.files[0];
      const folder = file ? folderPathOf(file) : null;
      if (folder) {
        setNote(null);
        void openFolder(folder);
      } else setNote(dropRefusal(host?.kind ?? 'browser', host?.folder ?? null));
    };
    window.addEventListener('dragenter', onDragEnter);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onDragEnter);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [folderPathOf, openFolder, host]);

  return { dragging, overAttach, note, dismissNote: () => setNote(null) };
}

/** Why a dropped item opened nothing, and what to do instead. */
function dropRefusal(kind: 'electron' | 'browser', servedFolder: string | null): string {
  if (kind === 'electron') return 'Only a folder from this computer can be opened by dropping it here.';
  const instead = servedFolder
    ? `This page works on ${servedFolder} only; to work on another folder, run \`rpi-workbench serve <folder>\`.`
    : 'Run `rpi-workbench serve <folder>` to work on a folder in the browser.';
  return `Opening a folder by dropping it needs the desktop app. ${instead}`;
}
