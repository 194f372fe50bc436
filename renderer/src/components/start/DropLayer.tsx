import { useWorkbench } from '../../store/StoreContext.js';
import { useFolderDrop } from './useFolderDrop.js';

/** What the window shows while a folder is dragged over it, and the note when a drop opened nothing. */
export function DropLayer() {
  const { dragging, overAttach, note, dismissNote } = useFolderDrop();
  const desktop = useWorkbench((state) => state.host?.kind === 'electron');
  return (
    <>
      {note && (
        <div className="banner banner-warning-inline" role="status" data-testid="drop-note">
          <span>{note}</span>
          <button type="button" className="button-quiet" onClick={dismissNote}>
            Dismiss
          </button>
        </div>
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>{dropHint(desktop, overAttach)}</p>
        </div>
      )}
    </>
  );
}

/** What a drop would do where the pointer is: attach to the request over the request box, else open a folder. */
function dropHint(desktop: boolean, overAttach: boolean): string {
  if (overAttach) return desktop ? 'Drop to attach to your request' : 'Attaching by dropping needs the desktop app: type @ instead';
  return desktop ? 'Drop a folder to open it' : 'Dropping a folder needs the desktop app';
}
