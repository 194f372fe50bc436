import { useWorkbench } from '../../store/StoreContext.js';
import { useNow } from '../run/useNow.js';
import { ConversationItem } from './ConversationItem.js';
import { newConversationKeys } from './newConversationKeys.js';
import './conversations.css';

/** The folder's conversations beside the chat, most recent first: switch, rename, delete, and start a new one. */
export function ConversationList() {
  const conversations = useWorkbench((state) => state.conversations);
  const shownId = useWorkbench((state) => state.conversationId);
  const runningId = useWorkbench((state) => state.runningConversationId);
  const hostKind = useWorkbench((state) => state.host?.kind ?? 'browser');
  const newConversation = useWorkbench((state) => state.newConversation);
  // The page's clock ticks each second; ages are shown to the minute, so the rows only see it change by the minute.
  const minute = Math.floor(useNow(conversations.length > 0) / 60_000) * 60_000;
  const keys = newConversationKeys(hostKind);

  return (
    <nav className="conversation-list" aria-labelledby="conversations-heading" data-testid="conversation-list">
      <div className="conversation-list-head">
        <h2 id="conversations-heading">Conversations</h2>
        <button type="button" className="button-primary" onClick={() => void newConversation()} aria-keyshortcuts={keys.aria} title={`New conversation (${keys.label})`} data-testid="new-conversation">
          New conversation
        </button>
      </div>
      {conversations.length === 0 ? (
        <p className="muted conversation-list-empty">No conversations yet: the first request starts one.</p>
      ) : (
        <ul>
          {conversations.map((conversation) => (
            <ConversationItem key={conversation.id} conversation={conversation} shown={conversation.id === shownId} running={conversation.id === runningId} now={minute} />
          ))}
        </ul>
      )}
    </nav>
  );
}
