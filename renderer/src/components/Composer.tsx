import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useWorkbench } from '../store/StoreContext.js';

/** The request box's id, for "focus the composer" from the desktop menu. */
export const composerInputId = 'composer-input';

const runningReason = 'A run is in progress — Stop it or wait for it to finish';

/**
 * The request box: Enter sends, Shift+Enter adds a line. While a run is active it says why it waits,
 * and Stop (or Esc) cancels the run.
 */
export function Composer() {
  const running = useWorkbench((state) => state.running);
  const modelSet = useWorkbench((state) => Boolean(state.settings?.model));
  const send = useWorkbench((state) => state.send);
  const cancel = useWorkbench((state) => state.cancel);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);

  const blocked = running ? runningReason : modelSet ? null : 'Choose a model in Settings to start.';
  const canSend = blocked === null && !sending && text.trim().length > 0;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    if (await send(text.trim())) setText('');
    setSending(false);
  };
  const stop = async () => {
    setStopping(true);
    await cancel();
    setStopping(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Escape' && running) {
      event.preventDefault();
      void stop();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing && event.target instanceof HTMLTextAreaElement) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className="composer" onSubmit={(event) => void submit(event)} onKeyDown={onKeyDown}>
      <label htmlFor={composerInputId} className="visually-hidden">
        Request
      </label>
      <textarea
        id={composerInputId}
        data-testid="composer"
        rows={3}
        value={text}
        placeholder="Describe what you want done in this folder…"
        onChange={(event) => setText(event.target.value)}
        readOnly={running}
        aria-disabled={running}
        aria-describedby={blocked ? 'composer-reason' : undefined}
      />
      <div className="composer-actions">
        {blocked && (
          <span id="composer-reason" className="muted composer-reason" role="status">
            {blocked}
          </span>
        )}
        {running && (
          <button type="button" className="button-danger" data-testid="stop-button" disabled={stopping} onClick={() => void stop()} aria-keyshortcuts="Escape">
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        )}
        <button type="submit" className="button-primary" data-testid="send-button" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
