import { useState } from 'react';
import type { UndoResult } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';

/** What an undo did, with a button that takes its file changes back through the Changes view's revert. */
export function UndoneNotice({ undone, onDismiss }: { undone: UndoResult; onDismiss: () => void }) {
  const running = useWorkbench((state) => state.running);
  const undoRevert = useWorkbench((state) => state.undoRevert);
  const [after, setAfter] = useState<string | null>(null);
  const { restoredFiles: restored, keptFiles: kept, takeBack } = undone;
  const files = restored.length === 1 ? '1 file' : `${restored.length} files`;
  const keptText = kept.length === 0 ? '' : ` Kept the other conversation’s version of ${kept.join(', ')}.`;

  const takeItBack = async () => {
    if (!takeBack) return;
    const response = await undoRevert(takeBack.revertId, takeBack.paths);
    setAfter(response.ok ? 'The undo’s file changes were taken back; the chat stays as it is.' : response.error);
  };

  return (
    <p className="changes-notice" role="status" data-testid="undone-notice">
      {after ?? `Undone: ${restored.length === 0 ? 'no files needed restoring' : `${files} put back`}.${keptText}`}{' '}
      {!after && takeBack && (
        <button type="button" className="button-small" disabled={running} onClick={() => void takeItBack()}>
          Take back
        </button>
      )}{' '}
      <button type="button" className="button-quiet" aria-label="Dismiss" onClick={onDismiss}>
        ✕
      </button>
    </p>
  );
}
