import { useVirtualizer } from '@tanstack/react-virtual';
import type { Message } from '../../../../engine/contract/index.js';
import type { RewindAction } from './MessageActions.js';
import { MessageItem } from './MessageItem.js';

interface MessageListProps {
  messages: readonly Message[];
  /** The element that scrolls (null until mounted); the list sits at its top. */
  scroller: HTMLElement | null;
  onRewind: (action: RewindAction, message: Message) => void;
}

/** A first guess at a message's height; each row is measured once it is drawn. */
const estimatedHeight = 96;

/**
 * The conversation's messages, virtualised: only the rows in and near the view are in the DOM, each
 * measured as drawn, so a history of thousands of messages scrolls as smoothly as a short one.
 */
export function MessageList({ messages, scroller, onRewind }: MessageListProps) {
  // Plain (uncompiled) React re-renders this component on every virtualizer change, which is what it needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller,
    estimateSize: () => estimatedHeight,
    getItemKey: (index) => messages[index]?.id ?? index,
    overscan: 6,
    paddingStart: 16,
  });

  return (
    <ol className="message-list" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => {
        const message = messages[row.index];
        if (!message) return null;
        return (
          <li
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            aria-posinset={row.index + 1}
            aria-setsize={messages.length}
            className="message-row"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <MessageItem message={message} onRewind={onRewind} />
          </li>
        );
      })}
    </ol>
  );
}
