import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../llmTypes.js';

/** Anthropic takes at most 4 breakpoints a request and refuses a fifth. */
const MAX_BREAKPOINTS = 4;

const ephemeral = { cache_control: { type: 'ephemeral' } } as const;

type ContentPart = ChatCompletionContentPart & { cache_control?: { type: 'ephemeral' } };

/**
 * The messages as they go on the wire: the `cacheBreakpoint` mark always removed, and where `breakpoints`
 * is set, the last 4 marked messages end with a content part carrying `cache_control: {type: "ephemeral"}`
 * (a string content becomes one text part). A message with no content to mark (an assistant message
 * with only tool calls, an empty text) is passed over: Anthropic refuses a breakpoint on an empty block.
 */
export function wireMessages(messages: readonly ChatMessage[], breakpoints: boolean): ChatCompletionMessageParam[] {
  const marked = breakpoints ? lastMarked(messages) : new Set<number>();
  return messages.map((message, index) => {
    const { cacheBreakpoint: _mark, ...plain } = message;
    return marked.has(index) ? withBreakpoint(plain) : plain;
  });
}

function lastMarked(messages: readonly ChatMessage[]): Set<number> {
  const indexes = messages.flatMap((message, index) => (message.cacheBreakpoint === true && markable(message) ? [index] : []));
  return new Set(indexes.slice(-MAX_BREAKPOINTS));
}

function markable(message: ChatCompletionMessageParam): boolean {
  const { content } = message;
  if (typeof content === 'string') return content !== '';
  return Array.isArray(content) && content.length > 0;
}

function withBreakpoint(message: ChatCompletionMessageParam): ChatCompletionMessageParam {
  const parts: ContentPart[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...(message.content as ContentPart[])];
  const last = parts.length - 1;
  parts[last] = { ...parts[last], ...ephemeral } as ContentPart;
  return { ...message, content: parts } as ChatCompletionMessageParam;
}
