import { useWorkbench } from '../../store/StoreContext.js';
import { Markdown } from './Markdown.js';

/** The run's summary as it streams in, before it becomes a message of the conversation. */
export function StreamingSummary() {
  const text = useWorkbench((state) => state.streamingSummary);
  if (!text) return null;
  return (
    <article className="message message-assistant message-streaming" data-testid="streaming-summary" aria-busy="true">
      <span className="message-role">Workbench</span>
      <Markdown text={text} />
    </article>
  );
}
