// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useStickToBottom } from '../../../../renderer/src/components/chat/useStickToBottom.js';

const lineHeight = 100;
const viewHeight = 300;

/** A chat-like scroller whose content is `lines` lines tall; it follows after each change, as the chat does. */
function Transcript({ lines }: { lines: number }) {
  const { scrollerRef, contentRef, follow } = useStickToBottom();
  useLayoutEffect(follow, [lines, follow]);
  return (
    <div data-testid="scroller" data-lines={lines} ref={scrollerRef}>
      <div ref={contentRef}>{lines} lines</div>
    </div>
  );
}

/** happy-dom lays nothing out: the scroller is 300px tall and its content 100px per line. */
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => viewHeight });
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get: function (this: HTMLElement) {
      return Number(this.dataset.lines ?? 0) * lineHeight;
    },
  });
});
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientHeight;
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).scrollHeight;
});

const scroller = () => screen.getByTestId('scroller');
const scrollTo = (top: number) =>
  act(() => {
    scroller().scrollTop = top;
    scroller().dispatchEvent(new Event('scroll'));
  });

describe('sticking to the bottom of the chat', () => {
  it('follows growing content until the user scrolls up, and again once they are back at the end', () => {
    const { rerender } = render(<Transcript lines={10} />);
    expect(scroller().scrollTop).toBe(1000);
    rerender(<Transcript lines={12} />);
    expect(scroller().scrollTop).toBe(1200);

    scrollTo(500);
    rerender(<Transcript lines={14} />);
    expect(scroller().scrollTop).toBe(500);

    scrollTo(14 * lineHeight - viewHeight);
    rerender(<Transcript lines={16} />);
    expect(scroller().scrollTop).toBe(1600);
  });

  it('keeps following when content grew before the scroll event of its own jump arrived', () => {
    const { rerender } = render(<Transcript lines={12} />);
    expect(scroller().scrollTop).toBe(1200);
    act(() => {
      scroller().dataset.lines = '20'; // far from the end now, but the view did not move up
      scroller().dispatchEvent(new Event('scroll'));
    });
    rerender(<Transcript lines={22} />);
    expect(scroller().scrollTop).toBe(2200);
  });
});
