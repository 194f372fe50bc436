import { useCallback, useEffect, useRef, useState } from 'react';

/** Within this many pixels of the end, the view counts as "at the bottom" and follows new content. */
const slack = 48;

export interface StickToBottom {
  /** The element that scrolls, once mounted. */
  scroller: HTMLElement | null;
  scrollerRef: (element: HTMLElement | null) => void;
  /** For the element inside the scroller that grows. */
  contentRef: (element: HTMLElement | null) => void;
  /** Scrolls to the end if the view is following it; call after the content changed. */
  follow(): void;
  /** Follows the end again, wherever the user had scrolled, and jumps there. */
  jump(): void;
}

/**
 * Keeps a scroll container at its end while its content grows (streaming text, new messages), until
 * the user scrolls up; scrolling back down to the end follows again. Growth never unsticks the view,
 * because only a scroll that moves up does.
 */
export function useStickToBottom(): StickToBottom {
  const [scroller, scrollerRef] = useState<HTMLElement | null>(null);
  const [content, contentRef] = useState<HTMLElement | null>(null);
  const stuck = useRef(true);
  const lastTop = useRef(0);

  const toBottom = useCallback(() => {
    if (!scroller) return;
    scroller.scrollTo({ top: scroller.scrollHeight });
    lastTop.current = scroller.scrollTop;
  }, [scroller]);
  const follow = useCallback(() => {
    if (stuck.current) toBottom();
  }, [toBottom]);
  const jump = useCallback(() => {
    stuck.current = true;
    toBottom();
  }, [toBottom]);

  useEffect(() => {
    if (!scroller || !content) return;
    const onScroll = () => {
      const distance = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
      if (distance <= slack) stuck.current = true;
      else if (scroller.scrollTop < lastTop.current) stuck.current = false;
      lastTop.current = scroller.scrollTop;
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(follow);
    observer?.observe(scroller);
    observer?.observe(content);
    follow();
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, [scroller, content, follow]);

  return { scroller, scrollerRef, contentRef, follow, jump };
}
