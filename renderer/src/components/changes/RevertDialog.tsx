import { useState } from 'react';
import type { FileChange, RevertResult } from '../../../../engine/contract/changes.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { useModalDialog } from '../useModalDialog.js';
import { DiffView } from './DiffView.js';
import { useFileDiff } from './useFileDiff.js';

interface RevertDialogProps {
  messageId: string;
  change: FileChange;
  onClose: () => void;
  onReverted: (result: RevertResult, paths: string[]) => void;
}

const outcome: Record<FileChange['status'], string> = {
  added: 'The request created it, so it is removed.',
  deleted: 'The request deleted it, so it is recreated, with its mode.',
  modified: 'It gets back its content and mode from before the request.',
  renamed: 'The request moved it, so it goes back to its old path.',
};

/**
 * Confirms putting one file back as it was before the request, showing the diff that undoes: everything
 * since the request, later changes included. A checkpoint is taken first, so the revert can be taken back.
 */
export function RevertDialog({ messageId, change, onClose, onReverted }: RevertDialogProps) {
  const dialog = useModalDialog();
  const revertFiles = useWorkbench((state) => state.revertFiles);
  const running = useWorkbench((state) => state.running);
  const undone = useFileDiff(messageId, change.path, 'since');
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const paths = change.oldPath === undefined ? [change.path] : [change.oldPath, change.path];

  const revert = async () => {
    setWorking(true);
    const response = await revertFiles(messageId, paths);
    setWorking(false);
    if (!response.ok) return setError(response.error);
    onReverted(response.value, paths);
  };

  return (
    <dialog ref={dialog} className="dialog revert-dialog" aria-labelledby="revert-title" data-testid="revert-confirm" onClose={onClose}>
      <h2 id="revert-title">
        Revert <code>{change.path}</code>?
      </h2>
      <p>
        {outcome[change.status]} Changes made to it since are undone too. A checkpoint is taken first, so you can undo this revert.
      </p>
      <p className="revert-diff-label">What reverting undoes:</p>
      {undone.state === 'loading' && (
        <p className="muted" role="status">
          Loading the diff…
        </p>
      )}
      {undone.state === 'failed' && <p className="form-error">{undone.error}</p>}
      {undone.state === 'ready' && <DiffView diff={undone.value} maxHeight={360} />}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="row row-end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button-danger" disabled={working || running || undone.state !== 'ready'} onClick={() => void revert()}>
          Revert this file
        </button>
      </div>
    </dialog>
  );
}
