import { useWorkbench } from '../../store/StoreContext.js';
import { useFolderDrop } from './useFolderDrop.js';

/** What the window shows while a folder is dragged over it, and the note when a drop opened nothing. */
export function DropLayer() {
  const { dragging, note, dismissNote } = useFolderDrop();
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
          <p>{desktop ? 'Drop a folder to open it' : 'Dropping a folder needs the desktop app'}</p>
        </div>
      )}
    </>
  );
}
