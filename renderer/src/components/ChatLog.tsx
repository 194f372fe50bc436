import { useCallback, useLayoutEffect, useState } from 'react';
import type { Message, UndoResult } from '../../../engine/contract/index.js';
import { useWorkbench } from '../store/StoreContext.js';
import { ChatRunCards } from './run/ChatRunCards.js';
import { WaitingElsewhere } from './conversations/WaitingElsewhere.js';
import type { RewindAction } from './chat/MessageActions.js';
import { MessageList } from './chat/MessageList.js';
import { RewindDialog } from './chat/RewindDialog.js';
import { RunFailureNotice } from './chat/RunFailureNotice.js';
import { StreamingSummary } from './chat/StreamingSummary.js';
import { UndoneNotice } from './chat/UndoneNotice.js';
import { useStickToBottom } from './chat/useStickToBottom.js';

/** The conversation: messages, the summary streaming in, a failed run's error, the run's cards, and what another conversation's run waits for. */
export function ChatLog() {
  const messages = useWorkbench((state) => state.messages);
  const streaming = useWorkbench((state) => state.streamingSummary !== '');
  const { scroller, scrollerRef, contentRef, follow, jump } = useStickToBottom();
  const [rewind, setRewind] = useState<{ action: RewindAction; message: Message } | null>(null);
  const [undone, setUndone] = useState<UndoResult | null>(null);
  const onRewind = useCallback((action: RewindAction, message: Message) => setRewind({ action, message }), []);

  const lastId = messages.at(-1)?.id;
  const lastIsRequest = messages.at(-1)?.role === 'user';
  useLayoutEffect(() => {
    // A request just sent is always shown, even if the user had scrolled up to read.
    if (lastIsRequest) jump();
    else follow();
  }, [lastId, lastIsRequest, jump, follow]);

  return (
    <section className="chat" aria-label="Conversation" ref={scrollerRef}>
      <div className="chat-content" ref={contentRef}>
        {messages.length === 0 && !streaming ? (
          <div className="chat-empty">
            <h2>No messages yet</h2>
            <p className="muted">Describe a change. The agent will research the folder, write a plan, and work through it.</p>
          </div>
        ) : (
          <MessageList messages={messages} scroller={scroller} onRewind={onRewind} />
        )}
        <div className="chat-tail">
          <StreamingSummary onGrow={follow} />
          {undone && <UndoneNotice undone={undone} onDismiss={() => setUndone(null)} />}
          <RunFailureNotice />
          <ChatRunCards />
          <WaitingElsewhere />
        </div>
      </div>
      {rewind && <RewindDialog action={rewind.action} message={rewind.message} onClose={() => setRewind(null)} onUndone={setUndone} />}
    </section>
  );
}
