import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useWorkbench } from '../store/StoreContext.js';
import { ContextChips } from './composer/ContextChips.js';
import { optionId, PathCompletion } from './composer/PathCompletion.js';
import { useAttachments } from './composer/useAttachments.js';
import { usePathCompletion } from './composer/usePathCompletion.js';
import { completeMention } from './composer/mention.js';
import './composer/composer.css';

/** The request box's id, for "focus the composer" from the desktop menu. */
export const composerInputId = 'composer-input';
const completionId = 'composer-paths';

const runningReason = 'A run is in progress — Stop it or wait for it to finish';

/**
 * The request box: Enter sends, Shift+Enter adds a line. `@` opens a list of the folder's files and
 * folders to attach (arrows, Enter or Tab, Esc); attached items show as chips above the box, files can
 * be dropped on it (desktop app), and a long paste can become a note. While a run is active it says why
 * it waits, and Stop (or Esc) cancels the run.
 */
export function Composer() {
  const running = useWorkbench((state) => state.running);
  const modelSet = useWorkbench((state) => Boolean(state.settings?.model));
  const send = useWorkbench((state) => state.send);
  const cancel = useWorkbench((state) => state.cancel);
  const searchPaths = useWorkbench((state) => state.searchPaths);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const nextCaret = useRef<number | null>(null);
  const attachments = useAttachments();
  const { completion, update, move, highlight, close } = usePathCompletion(searchPaths);

  useLayoutEffect(() => {
    if (nextCaret.current === null || !input.current) return;
    input.current.setSelectionRange(nextCaret.current, nextCaret.current);
    nextCaret.current = null;
  });

  const blocked = running ? runningReason : modelSet ? null : 'Choose a model in Settings to start.';
  const canSend = blocked === null && !sending && text.trim().length > 0;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    close();
    if (await send(text.trim(), attachments.items)) {
      setText('');
      attachments.clear();
    }
    setSending(false);
  };
  const stop = async () => {
    setStopping(true);
    await cancel();
    setStopping(false);
  };
  const edit = (value: string, caret: number) => {
    setText(value);
    nextCaret.current = caret;
    update(value, caret);
  };
  const pick = (index: number) => {
    const match = completion?.matches[index];
    if (!completion || !match) return;
    attachments.add({ kind: match.kind, path: match.path });
    const { text: completed, caret } = completeMention(text, completion.mention, match.kind === 'folder' ? `${match.path}/` : match.path);
    close();
    setText(completed);
    nextCaret.current = caret;
  };
  const attachPaste = () => {
    const offer = attachments.pasteOffer;
    if (!offer) return;
    attachments.add({ kind: 'note', text: offer.text });
    attachments.setPasteOffer(null);
    if (text.slice(offer.start, offer.start + offer.text.length) === offer.text) edit(text.slice(0, offer.start) + text.slice(offer.start + offer.text.length), offer.start);
    input.current?.focus();
  };
  const onCompletionKey = (event: KeyboardEvent<HTMLFormElement>): boolean => {
    if (!completion) return false;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      Escape: () => close(true),
      Enter: () => pick(completion.active),
      Tab: () => pick(completion.active),
    };
    const action = keys[event.key];
    if (!action || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false;
    if ((event.key === 'Enter' || event.key === 'Tab') && completion.matches.length === 0) return false;
    event.preventDefault();
    action();
    return true;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.target instanceof HTMLTextAreaElement && onCompletionKey(event)) return;
    if (event.key === 'Escape' && running) {
      event.preventDefault();
      void stop();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing && event.target instanceof HTMLTextAreaElement) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Backspace' && event.target instanceof HTMLTextAreaElement && text === '' && attachments.items.length > 0) {
      event.preventDefault();
      attachments.remove(attachments.items.length - 1);
    }
  };

  const describedBy = [blocked ? 'composer-reason' : null, 'composer-hint'].filter(Boolean).join(' ');
  return (
    <form
      className="composer"
      data-testid="composer-form"
      data-drop="attach"
      onSubmit={(event) => void submit(event)} onKeyDown={onKeyDown} onDragOver={attachments.onDragOver} onDrop={(event) => void attachments.onDrop(event)}>
      <ContextChips items={attachments.items} onRemove={attachments.remove} label="Attached to this request" />
      <label htmlFor={composerInputId} className="visually-hidden">
        Request
      </label>
      <div className="composer-field">
        <textarea
          id={composerInputId}
          ref={input}
          data-testid="composer"
          rows={3}
          value={text}
          placeholder="Describe what you want done in this folder… (@ attaches a file or folder)"
          onChange={(event) => edit(event.target.value, event.target.selectionStart)}
          onSelect={(event) => update(event.currentTarget.value, event.currentTarget.selectionStart)}
          onBlur={() => close()}
          onPaste={attachments.onPaste}
          readOnly={running}
          aria-disabled={running}
          aria-describedby={describedBy}
          aria-autocomplete="list"
          aria-controls={completion ? completionId : undefined}
          aria-activedescendant={completion && completion.matches.length > 0 ? optionId(completionId, completion.active) : undefined}
        />
        {completion && <PathCompletion id={completionId} completion={completion} onPick={pick} onHighlight={highlight} />}
      </div>
      <span id="composer-hint" className="visually-hidden">
        Type @ to attach a file or folder of this project; Backspace in an empty box removes the last attached item.
      </span>
      {attachments.pasteOffer && (
        <p className="composer-offer" data-testid="paste-offer">
          You pasted {attachments.pasteOffer.text.length.toLocaleString('en-US')} characters.
          <button type="button" className="button-quiet" data-testid="attach-note" onClick={attachPaste}>
            Attach as note
          </button>
          <button type="button" className="button-quiet" onClick={() => attachments.setPasteOffer(null)}>
            Keep in text
          </button>
        </p>
      )}
      {attachments.notice && (
        <p className="composer-notice" role="status" data-testid="composer-notice">
          {attachments.notice}
        </p>
      )}
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
