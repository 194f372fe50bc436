import { useEffect, useState } from 'react';
import type { Message, RequestResults } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { RewindFileDiff, useChangesSince } from '../changes/RewindFileDiff.js';
import { useModalDialog } from '../useModalDialog.js';
import type { RewindAction } from './MessageActions.js';
import { requestOf } from './requestOf.js';

type FileChange = RequestResults['session:undo-preview'][number];

interface RewindDialogProps {
  action: RewindAction;
  message: Message;
  onClose: () => void;
}

const wording: Record<RewindAction, { title: string; effect: string; button: string }> = {
  undo: {
    title: 'Undo this request?',
    effect: 'The request and everything after it leave the chat, and the folder goes back to how it was before it.',
    button: 'Undo',
  },
  regenerate: {
    title: 'Regenerate this request?',
    effect: 'The folder goes back to how it was before the request, then the request is sent again.',
    button: 'Regenerate',
  },
};

const changeLabel: Record<FileChange['change'], string> = {
  restored: 'restored',
  removed: 'removed (created since)',
  recreated: 'recreated (deleted since)',
};

/** Confirms an undo or a regenerate, listing the files it will put back first, each with the diff it takes back. */
export function RewindDialog({ action, message, onClose }: RewindDialogProps) {
  const messages = useWorkbench((state) => state.messages);
  const running = useWorkbench((state) => state.running);
  const previewUndo = useWorkbench((state) => state.previewUndo);
  const rewind = useWorkbench((state) => state[action]);
  const dialog = useModalDialog();
  const [changes, setChanges] = useState<FileChange[] | 'loading' | 'failed'>('loading');
  const [working, setWorking] = useState(false);

  useEffect(() => {
    let current = true;
    void previewUndo(message.id).then((preview) => current && setChanges(preview ?? 'failed'));
    return () => {
      current = false;
    };
  }, [previewUndo, message.id]);

  const request = requestOf(messages, message);
  const words = wording[action];
  const confirm = async () => {
    setWorking(true);
    await rewind(message.id);
    onClose();
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="rewind-title" data-testid="undo-confirm" onClose={onClose}>
      <h2 id="rewind-title">{words.title}</h2>
      {request && <blockquote className="rewind-request">{request.text}</blockquote>}
      <p>{words.effect}</p>
      <FileChanges changes={changes} messageId={message.id} />
      <div className="row row-end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button-primary" disabled={working || running || changes === 'loading' || changes === 'failed'} onClick={() => void confirm()}>
          {words.button}
        </button>
      </div>
    </dialog>
  );
}

function FileChanges({ changes, messageId }: { changes: FileChange[] | 'loading' | 'failed'; messageId: string }) {
  const diffs = useChangesSince(messageId);
  if (changes === 'loading') return <p className="muted" role="status">Checking which files change…</p>;
  if (changes === 'failed') return <p className="form-error">The files to restore could not be listed, so nothing was changed.</p>;
  if (changes.length === 0) return <p className="muted">No files change.</p>;
  return (
    <>
      <p>Files that change:</p>
      <ul className="file-changes">
        {changes.map((change) => (
          <li key={change.path} data-testid="undo-file" data-change={change.change}>
            <div className="rewind-file-line">
              <code>{change.kind === 'folder' ? `${change.path}/` : change.path}</code> <span className="muted">{changeLabel[change.change]}</span>
              {diffs?.get(change.path) && <RewindFileDiff messageId={messageId} change={diffs.get(change.path)!} />}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
