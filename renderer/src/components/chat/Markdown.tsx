import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock.js';

/**
 * Links never navigate the app's own page: they ask for a new window, which the desktop app hands to
 * the OS browser, and carry no referrer.
 */
function ExternalLink({ node: _node, children, ...rest }: ComponentProps<'a'> & ExtraProps) {
  return (
    <a {...rest} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

/** The page's CSP loads no remote images, so an image is offered as a link to it instead. */
function ImageLink({ src, alt }: ComponentProps<'img'> & ExtraProps) {
  if (typeof src !== 'string' || !src) return <>{alt}</>;
  return (
    <a href={src} target="_blank" rel="noreferrer">
      {alt || src}
    </a>
  );
}

const components: Components = { a: ExternalLink, img: ImageLink, pre: CodeBlock };
const plugins = [remarkGfm];

/**
 * Chat text as GitHub-flavoured Markdown (tables, task lists, fenced code). Raw HTML in the text is
 * shown as text, never rendered, and unsafe URLs (javascript:) are dropped by react-markdown.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={plugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
