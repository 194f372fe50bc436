import { memo, useEffect, useRef, useState } from 'react';
import type { ConversationSummary } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { formatAge } from '../formatAge.js';
import { DeleteConversationDialog } from './DeleteConversationDialog.js';
import { TitleEditor } from './TitleEditor.js';

interface ConversationItemProps {
  conversation: ConversationSummary;
  /** The conversation the chat shows. */
  shown: boolean;
  /** Its run is the folder's active one. */
  running: boolean;
  now: number;
}

/** One conversation in the list: a button that shows it, its last activity and running mark, and Rename and Delete. */
export const ConversationItem = memo(function ConversationItem({ conversation, shown, running, now }: ConversationItemProps) {
  const switchConversation = useWorkbench((state) => state.switchConversation);
  const [mode, setMode] = useState<'idle' | 'renaming' | 'deleting'>('idle');
  const { id, title, updated } = conversation;
  // Once a rename ends, the keyboard goes on from the row it was on rather than from the top of the page.
  const switchButton = useRef<HTMLButtonElement>(null);
  const renamed = useRef(false);
  useEffect(() => {
    if (mode !== 'idle' || !renamed.current) return;
    renamed.current = false;
    switchButton.current?.focus();
  }, [mode]);
  const endRename = () => {
    renamed.current = true;
    setMode('idle');
  };

  return (
    <li className={shown ? 'conversation-item conversation-item-shown' : 'conversation-item'} data-testid="conversation" data-id={id} data-running={running}>
      {mode === 'renaming' ? (
        <TitleEditor conversation={conversation} onDone={endRename} />
      ) : (
        <button
          ref={switchButton}
          type="button"
          className="conversation-switch"
          aria-current={shown ? 'true' : undefined}
          onClick={() => !shown && void switchConversation(id)}
          onDoubleClick={() => setMode('renaming')}
          title={title}
        >
          <span className="conversation-title" data-testid="conversation-title">
            {title}
          </span>
          <span className="conversation-meta muted">
            {running && (
              <span className="conversation-running" data-testid="conversation-running">
                Running ·{' '}
              </span>
            )}
            <time dateTime={new Date(updated).toISOString()} title={new Date(updated).toLocaleString()}>
              {formatAge(updated, now)}
            </time>
          </span>
        </button>
      )}
      {mode !== 'renaming' && (
        <span className="conversation-actions">
          <button type="button" className="button-quiet" aria-label={`Rename “${title}”`} title="Rename" onClick={() => setMode('renaming')}>
            ✎
          </button>
          <button type="button" className="button-quiet" aria-label={`Delete “${title}”`} title="Delete" onClick={() => setMode('deleting')}>
            ✕
          </button>
        </span>
      )}
      {mode === 'deleting' && <DeleteConversationDialog conversation={conversation} onClose={() => setMode('idle')} />}
    </li>
  );
});
