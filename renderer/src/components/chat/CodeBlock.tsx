import { isValidElement, useEffect, useState, type ComponentProps, type ReactNode } from 'react';
import type { ExtraProps } from 'react-markdown';
import { copyText } from './copyText.js';

type CopyState = 'idle' | 'copied' | 'failed';
const copyLabel: Record<CopyState, string> = { idle: 'Copy', copied: 'Copied', failed: 'Copy failed' };

/** A fenced code block from Markdown, with a button that copies its text. */
export function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & ExtraProps) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => setState((await copyText(textOf(children))) ? 'copied' : 'failed');

  return (
    <div className="code-block">
      <button type="button" className="button-quiet code-copy" onClick={() => void copy()} aria-live="polite">
        {copyLabel[state]}
      </button>
      <pre {...rest}>{children}</pre>
    </div>
  );
}

/** The plain text of rendered Markdown children (the block's <code> element and its text). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return '';
}
