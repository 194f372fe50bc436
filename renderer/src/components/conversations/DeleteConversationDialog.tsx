import { useState } from 'react';
import type { ConversationSummary } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { useModalDialog } from '../useModalDialog.js';

/**
 * Confirms deleting a conversation, saying what goes with it; the folder's files stay as they are. A
 * refusal (a run going) is said in the dialog and nothing is deleted.
 */
export function DeleteConversationDialog({ conversation, onClose }: { conversation: ConversationSummary; onClose: () => void }) {
  const remove = useWorkbench((state) => state.deleteConversation);
  // The engine deletes nothing while any run of the folder is going.
  const busy = useWorkbench((state) => state.runningConversationId !== null);
  const dialog = useModalDialog();
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const requests = `${conversation.requests} ${conversation.requests === 1 ? 'request' : 'requests'}`;

  const confirm = async () => {
    setWorking(true);
    const response = await remove(conversation.id);
    setWorking(false);
    if (response.ok) onClose();
    else setError(response.error);
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="delete-conversation-title" data-testid="delete-conversation" onClose={onClose}>
      <h2 id="delete-conversation-title">Delete this conversation?</h2>
      <blockquote className="rewind-request">{conversation.title}</blockquote>
      <p>
        Its history ({requests}) and the research and plans kept for it are removed for good. The folder’s files stay as they are, and undo points that
        no other conversation needs are cleared.
      </p>
      {busy && <p className="form-error">A run is going in this folder: wait for it to finish, or cancel it, before deleting.</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="row row-end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button-danger" disabled={working || busy} onClick={() => void confirm()}>
          Delete
        </button>
      </div>
    </dialog>
  );
}
