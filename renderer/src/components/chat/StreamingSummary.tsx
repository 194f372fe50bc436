import { useLayoutEffect } from 'react';
import { useWorkbench } from '../../store/StoreContext.js';
import { Markdown } from './Markdown.js';

/**
 * The run's summary as it streams in, before it becomes a message of the conversation. It alone follows
 * each piece of text (calling `onGrow` after it is drawn), so the rest of the chat does not re-render.
 */
export function StreamingSummary({ onGrow }: { onGrow: () => void }) {
  const text = useWorkbench((state) => state.streamingSummary);
  useLayoutEffect(onGrow, [text, onGrow]);
  if (!text) return null;
  return (
    <article className="message message-assistant message-streaming" data-testid="streaming-summary" aria-busy="true">
      <span className="message-role">Workbench</span>
      <Markdown text={text} />
    </article>
  );
}
