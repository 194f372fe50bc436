import { memo } from 'react';
import type { Message } from '../../../../engine/contract/index.js';
import { ChangesLine } from '../changes/ChangesLine.js';
import { ContextChips } from '../composer/ContextChips.js';
import { Markdown } from './Markdown.js';
import { MessageActions, type RewindAction } from './MessageActions.js';
import { RequestSpend } from './RequestSpend.js';
import { RunFilesLine } from './RunFilesLine.js';

interface MessageItemProps {
  message: Message;
  onRewind: (action: RewindAction, message: Message) => void;
}

const roleName = { user: 'You', assistant: 'Workbench' } as const;

/** One message of the conversation: who wrote it, its Markdown, its undo/regenerate actions, and for a request the files it changed, its run's research and plan, and what its model calls used. */
export const MessageItem = memo(function MessageItem({ message, onRewind }: MessageItemProps) {
  return (
    <article className={`message message-${message.role}`} data-testid="message" data-role={message.role} data-id={message.id}>
      <header className="message-header">
        <span className="message-role">{roleName[message.role]}</span>
        <MessageActions message={message} onRewind={onRewind} />
      </header>
      <Markdown text={message.text} />
      {message.context && <ContextChips items={message.context} label="Attached to this request" />}
      {message.role === 'user' && <ChangesLine message={message} />}
      {message.role === 'user' && <RunFilesLine message={message} />}
      {message.role === 'user' && <RequestSpend message={message} />}
    </article>
  );
});
