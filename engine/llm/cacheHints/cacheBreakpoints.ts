import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../llmTypes.js';

/** Anthropic takes at most 4 breakpoints a request and refuses a fifth. */
const MAX_BREAKPOINTS = 4;

const ephemeral = { cache_control: { type: 'ephemeral' } } as const;

type ContentPart = ChatCompletionContentPart & { cache_control?: { type: 'ephemeral' } };

/**
 * The messages as they go on the wire: the `cacheBreakpoint` mark always removed, and where `breakpoints`
 * is set, the last 4 marks become content parts carrying `cache_control: {type: "ephemeral"}`: a message
 * marked `true` ends with one (a string content becomes one text part); one marked at a character
 * offset has its text split there into two parts, the first carrying it. A mark with nothing before it
 * to cache (an assistant message with only tool calls, an empty text) is passed over: Anthropic
 * refuses a breakpoint on an empty block.
 */
export function wireMessages(messages: readonly ChatMessage[], breakpoints: boolean): ChatCompletionMessageParam[] {
  const marked = breakpoints ? lastMarked(messages) : new Set<number>();
  return messages.map((message, index) => {
    const { cacheBreakpoint: mark, ...plain } = message;
    if (!marked.has(index)) return plain;
    return typeof mark === 'number' ? splitAt(plain, mark) : withBreakpoint(plain);
  });
}

/**
 * Marks the last message as the end of a turn's prefix, so the next turn of the loop reads all of this
 * one from the cache (Anthropic caches only up to a breakpoint; its lookup finds an earlier one).
 */
export function markLast(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages.at(-1);
  if (!last || last.cacheBreakpoint !== undefined) return [...messages];
  return [...messages.slice(0, -1), { ...last, cacheBreakpoint: true } as ChatMessage];
}

function lastMarked(messages: readonly ChatMessage[]): Set<number> {
  const indexes = messages.flatMap((message, index) => (markable(message) ? [index] : []));
  return new Set(indexes.slice(-MAX_BREAKPOINTS));
}

function markable(message: ChatMessage): boolean {
  const { content, cacheBreakpoint: mark } = message;
  if (mark === undefined) return false;
  if (typeof mark === 'number') return typeof content === 'string' && mark > 0 && mark <= content.length;
  if (typeof content === 'string') return content !== '';
  return Array.isArray(content) && content.length > 0;
}

/** A string content as two text parts, the first `at` characters ending with a breakpoint. */
function splitAt(message: ChatCompletionMessageParam, at: number): ChatCompletionMessageParam {
  const text = message.content as string;
  const rest = text.slice(at);
  const parts: ContentPart[] = [{ type: 'text', text: text.slice(0, at), ...ephemeral }, ...(rest ? [{ type: 'text' as const, text: rest }] : [])];
  return { ...message, content: parts } as ChatCompletionMessageParam;
}

function withBreakpoint(message: ChatCompletionMessageParam): ChatCompletionMessageParam {
  const parts: ContentPart[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...(message.content as ContentPart[])];
  const last = parts.length - 1;
  parts[last] = { ...parts[last], ...ephemeral } as ContentPart;
  return { ...message, content: parts } as ChatCompletionMessageParam;
}
