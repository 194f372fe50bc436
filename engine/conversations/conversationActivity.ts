import type { ConversationSummary, UnsequencedEvent, WorkbenchEvent } from '../contract/index.js';
import { SerialQueue } from '../store/serialQueue.js';
import type { Conversations } from './conversations.js';

/**
 * What changes a conversation's line in a way a page cannot tell from the event itself: a request added
 * (the count, the title of a new conversation) and the history cut. A page follows the rest from the
 * events it gets anyway: the last activity from each message-added's time, the running mark from
 * run-started and run-finished, so nothing follows a run's end.
 */
const changesTheLine = (event: WorkbenchEvent): boolean =>
  event.type === 'conversation-reset' || (event.type === 'message-added' && event.message.role === 'user');

/** The folder's conversations as the list shows them, most recent first, with the one whose run is active marked. */
export async function conversationSummaries(conversations: Pick<Conversations, 'list'>, running: string | null): Promise<ConversationSummary[]> {
  return (await conversations.list()).map((listed) => ({ ...listed, running: listed.id === running }));
}

export interface ConversationActivityDeps {
  conversations: Pick<Conversations, 'list'>;
  /** The conversation whose run is active, or null. */
  running: () => string | null;
  subscribe: (listener: (event: WorkbenchEvent) => void) => () => void;
  emit: (event: UnsequencedEvent) => void;
}

/**
 * Announces a conversation's line again (`conversation-updated`) after each event that changes it, in the
 * order the events came, so every page showing the folder keeps the same list live. Returns the unsubscribe.
 */
export function followConversationActivity({ conversations, running, subscribe, emit }: ConversationActivityDeps): () => void {
  const queue = new SerialQueue();
  return subscribe((event) => {
    const { conversationId } = event;
    if (conversationId === undefined || !changesTheLine(event)) return;
    const runningNow = running();
    void queue
      .run(async () => {
        const conversation = (await conversationSummaries(conversations, runningNow)).find((listed) => listed.id === conversationId);
        if (conversation) emit({ type: 'conversation-updated', runId: null, conversation });
      })
      .catch((error: unknown) => emit({ type: 'warning', runId: null, message: `The conversation list could not be read again: ${error instanceof Error ? error.message : String(error)}` }));
  });
}
