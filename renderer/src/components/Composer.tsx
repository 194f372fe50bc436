import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useWorkbench } from '../store/StoreContext.js';

/** Multi-line request box: Enter sends, Shift+Enter adds a line. */
export function Composer() {
  const running = useWorkbench((state) => state.running);
  const modelSet = useWorkbench((state) => Boolean(state.settings?.model));
  const send = useWorkbench((state) => state.send);
  const [text, setText] = useState('');

  const blocked = running ? 'A run is in progress.' : modelSet ? null : 'Choose a model in Settings to start.';
  const canSend = blocked === null && text.trim().length > 0;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    if (await send(text.trim())) setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      <label htmlFor="composer-input" className="visually-hidden">
        Request
      </label>
      <textarea
        id="composer-input"
        rows={3}
        value={text}
        placeholder="Describe what you want done in this folder…"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby={blocked ? 'composer-reason' : undefined}
      />
      <div className="composer-actions">
        {blocked && (
          <span id="composer-reason" className="muted">
            {blocked}
          </span>
        )}
        <button type="submit" className="button-primary" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
