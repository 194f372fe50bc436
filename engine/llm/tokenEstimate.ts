import type { ToolDefinition } from '../tools/toolCatalog.js';
import type { ChatMessage, LlmToolCall } from './llmTypes.js';

/**
 * Token counts for servers that report no usage, with the o200k_base encoding (GPT-4o and later). Other
 * models tokenize differently, so these are estimates; the overheads follow OpenAI's published way of
 * counting chat messages.
 */

const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
/** Every reply is primed with `<|start|>assistant<|message|>`. */
const TOKENS_PER_REPLY = 3;
const TOKENS_PER_TOOL_CALL = 3;

type CountTokens = (text: string) => number;

let counter: Promise<CountTokens> | undefined;
const mergeCacheSize = 10_000;

/** The encoder is a few megabytes of ranks: it is loaded on first use, not when the engine starts. */
function loadCounter(): Promise<CountTokens> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens, setMergeCacheSize }) => {
    // The encoder remembers the pieces it split (100,000 by default, megabytes a long run fills up): a
    // smaller cache keeps the words a project repeats and lets a long run's heap stay flat.
    setMergeCacheSize(mergeCacheSize);
    // Text that happens to contain `<|endoftext|>` and the like is counted as text, not refused.
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => (text === '' ? 0 : countTokens(text, options));
  });
  return counter;
}

function argumentText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args === undefined || args === null ? '' : JSON.stringify(args);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function toolCallsText(message: ChatMessage): string {
  if (message.role !== 'assistant' || !message.tool_calls) return '';
  return message.tool_calls
    .map((call) => (call.type === 'function' ? call.function.name + argumentText(call.function.arguments) : ''))
    .join('');
}

/**
 * Counts already made: a message by the object it is (a history's messages are never changed in place, only
 * replaced), a tool list by its JSON, so a request that repeats the earlier turns costs only its new
 * messages to count, not the whole history every turn.
 */
const countedMessages = new WeakMap<ChatMessage, number>();
const countedTools = new Map<string, number>();
/** Tool lists remembered: the few a run offers (one per phase, and what MCP servers add). */
const keptToolLists = 16;

function messageTokens(message: ChatMessage, count: CountTokens): number {
  let tokens = countedMessages.get(message);
  if (tokens === undefined) {
    tokens = countMessage(message, count);
    countedMessages.set(message, tokens);
  }
  return tokens;
}

/** The tool list counted last: a loop offers the same definitions (the same objects) every turn, found without serialising them. */
let lastTools: { tools: readonly ToolDefinition[]; tokens: number } | null = null;

function toolTokens(tools: readonly ToolDefinition[], count: CountTokens): number {
  if (tools.length === 0) return 0;
  const last = lastTools;
  if (last && last.tools.length === tools.length && last.tools.every((tool, index) => tool === tools[index])) return last.tokens;
  const tokens = toolListTokens(tools, count);
  lastTools = { tools: [...tools], tokens };
  return tokens;
}

function toolListTokens(tools: readonly ToolDefinition[], count: CountTokens): number {
  const json = JSON.stringify(tools);
  let tokens = countedTools.get(json);
  if (tokens === undefined) {
    tokens = count(json);
    if (countedTools.size >= keptToolLists) countedTools.delete(countedTools.keys().next().value as string);
    countedTools.set(json, tokens);
  }
  return tokens;
}

/**
 * The latest long texts counted, by their text: the same text often comes back in another message object
 * — the turn's last message is sent as a copy marked as the cache breakpoint, and each loop of a run
 * builds its system prompt anew — and is then not encoded again. Few, and none huge, so memory stays flat.
 */
const countedTexts = new Map<string, number>();
const keptTexts = 32;
const minKeptChars = 256;
const maxKeptChars = 256_000;

function textTokens(text: string, count: CountTokens): number {
  if (text.length < minKeptChars || text.length > maxKeptChars) return count(text);
  let tokens = countedTexts.get(text);
  if (tokens === undefined) {
    tokens = count(text);
    if (countedTexts.size >= keptTexts) countedTexts.delete(countedTexts.keys().next().value as string);
  } else {
    countedTexts.delete(text);
  }
  countedTexts.set(text, tokens);
  return tokens;
}

/**
 * A message whose stable sections end at a marked offset (a phase's fresh context) is counted in its two
 * parts, so the stable part, the same for every item of a phase, is found among the texts counted. Only
 * where the split cannot change the count: the stable part ends with a blank line and the rest begins with
 * a character no piece of the encoding's split joins to a line break before it.
 */
function contentTokens(message: ChatMessage, count: CountTokens): number {
  const text = contentText(message.content);
  const at = message.cacheBreakpoint;
  if (typeof at !== 'number' || typeof message.content !== 'string' || !splitsCleanly(text, at)) return textTokens(text, count);
  return textTokens(text.slice(0, at), count) + textTokens(text.slice(at), count);
}

function splitsCleanly(text: string, at: number): boolean {
  return at >= minKeptChars && at < text.length && text.slice(at - 2, at) === '\n\n' && /^[^\s/]/.test(text.slice(at, at + 1));
}

function countMessage(message: ChatMessage, count: CountTokens): number {
  return messageSize(message, contentTokens(message, count), count, (calls) => textTokens(calls, count));
}

/**
 * A message's size from its parts' sizes, with the overheads of OpenAI's published way of counting:
 * `content` its content's, `measure` each other text's, `measureCalls` its tool calls' text.
 */
function messageSize(message: ChatMessage, content: number, measure: (text: string) => number, measureCalls = measure): number {
  const name = 'name' in message && typeof message.name === 'string' ? message.name : '';
  const toolCallId = message.role === 'tool' ? message.tool_call_id : '';
  return (
    TOKENS_PER_MESSAGE +
    measure(message.role) +
    content +
    measureCalls(toolCallsText(message)) +
    measure(toolCallId) +
    (name === '' ? 0 : TOKENS_PER_NAME + measure(name))
  );
}

/** What a request costs: every message with its overhead, the reply priming, and the tool definitions. */
export async function estimatePromptTokens(messages: readonly ChatMessage[], tools: readonly ToolDefinition[] = []): Promise<number> {
  const count = await loadCounter();
  const messageTotal = messages.reduce((sum, message) => sum + messageTokens(message, count), 0);
  return messageTotal + TOKENS_PER_REPLY + toolTokens(tools, count);
}

/**
 * A bound the request's count never passes, found without tokenizing: every token of the encoding stands
 * for at least one byte of UTF-8, so a text counts at most its bytes; messages already counted, and the
 * tool list, count as estimatePromptTokens counts them. Enough to tell that a request fits its budget,
 * which most requests of a loop do with room to spare.
 */
export async function promptTokensAtMost(messages: readonly ChatMessage[], tools: readonly ToolDefinition[] = []): Promise<number> {
  const count = await loadCounter();
  const messageTotal = messages.reduce((sum, message) => sum + (countedMessages.get(message) ?? messageBound(message)), 0);
  return messageTotal + TOKENS_PER_REPLY + toolTokens(tools, count);
}

const boundedMessages = new WeakMap<ChatMessage, number>();

/** countMessage with each text's UTF-8 length for its tokens. */
function messageBound(message: ChatMessage): number {
  let bound = boundedMessages.get(message);
  if (bound === undefined) {
    bound = messageSize(message, utf8Length(contentText(message.content)), utf8Length);
    boundedMessages.set(message, bound);
  }
  return bound;
}

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** What a reply cost: its text and, per tool call, the name, the arguments and a small overhead. */
export async function estimateCompletionTokens(text: string, toolCalls: readonly LlmToolCall[] = []): Promise<number> {
  const count = await loadCounter();
  return toolCalls.reduce(
    (sum, call) => sum + TOKENS_PER_TOOL_CALL + count(call.name) + count(argumentText(call.arguments)),
    count(text),
  );
}
