import { useWorkbench } from '../store/StoreContext.js';

export function ChatLog() {
  const messages = useWorkbench((state) => state.messages);
  const streaming = useWorkbench((state) => state.streamingSummary);

  return (
    <section className="chat" aria-label="Conversation" aria-live="polite">
      {messages.length === 0 && !streaming ? (
        <div className="chat-empty">
          <h2>No messages yet</h2>
          <p className="muted">Describe a change. The agent will research the folder, write a plan, and work through it.</p>
        </div>
      ) : (
        <ol className="messages">
          {messages.map((message) => (
            <li key={message.id} className={`message message-${message.role}`}>
              <span className="message-role">{message.role === 'user' ? 'You' : 'Workbench'}</span>
              <p className="message-text">{message.text}</p>
            </li>
          ))}
          {streaming && (
            <li className="message message-assistant message-streaming">
              <span className="message-role">Workbench</span>
              <p className="message-text">{streaming}</p>
            </li>
          )}
        </ol>
      )}
    </section>
  );
}
