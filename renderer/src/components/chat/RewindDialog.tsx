import { useEffect, useState } from 'react';
import type { Message, RequestResults, UndoChoices, UndoResult } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { RewindFileDiff, useChangesSince } from '../changes/RewindFileDiff.js';
import { useModalDialog } from '../useModalDialog.js';
import type { RewindAction } from './MessageActions.js';
import { requestOf } from './requestOf.js';
import { conflictingFiles, UndoConflicts } from './UndoConflicts.js';

type FileChange = RequestResults['session:undo-preview'][number];

interface RewindDialogProps {
  action: RewindAction;
  message: Message;
  onClose: () => void;
  /** Told what an undo did (not a regenerate, whose run shows its own progress). */
  onUndone: (undone: UndoResult) => void;
}

const wording: Record<RewindAction, { title: string; effect: string; button: string }> = {
  undo: {
    title: 'Undo this request?',
    effect: 'The request and everything after it leave the chat, and the files they changed go back to how they were before it.',
    button: 'Undo',
  },
  regenerate: {
    title: 'Regenerate this request?',
    effect: 'The files the request changed go back to how they were before it, then the request is sent again.',
    button: 'Regenerate',
  },
};

const changeLabel: Record<FileChange['change'], string> = {
  restored: 'restored',
  removed: 'removed (created since)',
  recreated: 'recreated (deleted since)',
};

/**
 * Confirms an undo or a regenerate, listing the files it will put back first, each with the diff it takes
 * back, and each file another conversation changed since with a keep/take choice (keep by default). A
 * refusal (the folder changed since the list was made) is shown and the list made again.
 */
export function RewindDialog({ action, message, onClose, onUndone }: RewindDialogProps) {
  const messages = useWorkbench((state) => state.messages);
  const running = useWorkbench((state) => state.running);
  const previewUndo = useWorkbench((state) => state.previewUndo);
  const undo = useWorkbench((state) => state.undo);
  const regenerate = useWorkbench((state) => state.regenerate);
  const dialog = useModalDialog();
  const [changes, setChanges] = useState<FileChange[] | 'loading' | 'failed'>('loading');
  const [choices, setChoices] = useState<UndoChoices>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [previews, setPreviews] = useState(0);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    let current = true;
    void previewUndo(message.id).then((preview) => {
      if (!current) return;
      setChanges(preview ?? 'failed');
      setChoices((chosen) => Object.fromEntries(conflictingFiles(preview ?? []).map((file) => [file.path, chosen[file.path] ?? 'keep'])));
    });
    return () => {
      current = false;
    };
  }, [previewUndo, message.id, previews]);

  const request = requestOf(messages, message);
  const words = wording[action];
  const confirm = async () => {
    setWorking(true);
    if (action === 'regenerate') {
      await regenerate(message.id, choices);
      onClose();
      return;
    }
    const response = await undo(message.id, choices);
    setWorking(false);
    if (!response.ok) {
      setRefusal(response.error);
      setChanges('loading');
      setPreviews((count) => count + 1);
      return;
    }
    onUndone(response.value);
    onClose();
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="rewind-title" data-testid="undo-confirm" onClose={onClose}>
      <h2 id="rewind-title">{words.title}</h2>
      {request && <blockquote className="rewind-request">{request.text}</blockquote>}
      <p>{words.effect}</p>
      <FileChanges changes={changes} messageId={message.id} />
      {Array.isArray(changes) && conflictingFiles(changes).length > 0 && (
        <UndoConflicts files={conflictingFiles(changes)} choices={choices} onChoose={(path, choice) => setChoices((chosen) => ({ ...chosen, [path]: choice }))} />
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
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
  const unasked = changes.filter((change) => change.conflict === undefined);
  if (changes.length === 0) return <p className="muted">No files change.</p>;
  if (unasked.length === 0) return null;
  return (
    <>
      <p>Files that change:</p>
      <ul className="file-changes">
        {unasked.map((change) => (
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
