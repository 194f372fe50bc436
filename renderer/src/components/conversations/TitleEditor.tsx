import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';

/**
 * A conversation's title edited in place: Enter saves it (the list takes the engine's answer), Escape
 * leaves it as it was; a refusal (an empty title) is said under the field and nothing changes.
 */
export function TitleEditor({ conversation, onDone }: { conversation: ConversationSummary; onDone: () => void }) {
  const rename = useWorkbench((state) => state.renameConversation);
  const [draft, setDraft] = useState(conversation.title);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (draft === conversation.title) return onDone();
    setSaving(true);
    const response = await rename(conversation.id, draft);
    setSaving(false);
    if (response.ok) onDone();
    else setError(response.error);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Escape ends the edit here; it must not also close a dialog or stop anything around the list.
    event.stopPropagation();
    onDone();
  };

  return (
    <form className="title-editor" onSubmit={(event) => void save(event)}>
      <input
        ref={input}
        aria-label="Conversation title"
        value={draft}
        disabled={saving}
        aria-invalid={error !== null}
        aria-describedby={error ? `title-error-${conversation.id}` : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        data-testid="conversation-title-input"
      />
      {error && (
        <p className="form-error" id={`title-error-${conversation.id}`} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
