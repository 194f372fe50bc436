import { createHash } from 'node:crypto';
import type { PlannedToolCall } from './plan.js';
import type { PromptCacheOptions } from './types.js';
import type { PlannedUsage } from './usageShapes.js';

/**
 * Automatic prompt caching as OpenAI documents it (platform.openai.com/docs/guides/prompt-caching): a
 * request whose first 1,024 tokens or more equal those of an earlier request is served partly from cache,
 * the match growing in steps of 128 tokens, against the requests of the last few minutes. Reported as
 * `usage.prompt_tokens_details.cached_tokens`.
 *
 * The token sequence of a request, o200k_base (GPT-4o and later), is serialised in the order OpenAI renders
 * a request: the tool definitions first (`JSON.stringify(tools)` as sent), then each message in order as
 * `<|start|>{role}<|message|>{content}{tool calls}{tool_call_id}<|end|>`, where content is the text (or
 * the text parts joined) and each tool call is its name followed by its arguments. Each of those pieces is
 * tokenized on its own, as the special tokens of a chat format keep them apart. The sequence is cut into
 * blocks of 128 tokens, each named by a hash of itself and every block before it: a request's cached
 * prefix is its leading blocks that some request of the last `ttlMs` also had, counted only from 8 blocks
 * (1,024 tokens). In this mode prompt and completion tokens are counted with the same tokenizer, so the
 * cached count is a share of the prompt count.
 */

/** The usage the fake reported for one request in this mode, in order of the requests answered. */
export interface CacheReport {
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}


const blockTokens = 128;
const minCachedTokens = 1024;
const defaultTtlMs = 10 * 60_000;

type Encode = (text: string) => number[];

let encoder: Promise<Encode> | undefined;

function loadEncoder(): Promise<Encode> {
  encoder ??= import('gpt-tokenizer/encoding/o200k_base').then(({ encode }) => {
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => (text === '' ? [] : encode(text, options));
  });
  return encoder;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

function toolCallsText(toolCalls: unknown): string {
  if (!Array.isArray(toolCalls)) return '';
  return toolCalls
    .map((call) => {
      const fn = isRecord(call) ? call['function'] : undefined;
      if (!isRecord(fn)) return '';
      const args = fn['arguments'];
      return `${typeof fn['name'] === 'string' ? fn['name'] : ''}${typeof args === 'string' ? args : JSON.stringify(args ?? {})}`;
    })
    .join('');
}

/** The pieces of one message, each tokenized on its own. */
function messagePieces(message: unknown): string[] {
  if (!isRecord(message)) return [];
  const role = typeof message['role'] === 'string' ? message['role'] : '';
  const callId = typeof message['tool_call_id'] === 'string' ? message['tool_call_id'] : '';
  return [`<|start|>${role}<|message|>`, contentText(message['content']), toolCallsText(message['tool_calls']), callId, '<|end|>'];
}

export interface PromptRequest {
  messages: readonly unknown[];
  tools: readonly unknown[];
}

/** A request's prompt as the token sequence the cache matches (see above); `memo` keeps pieces already tokenized. */
export async function requestTokens({ messages, tools }: PromptRequest, memo = new Map<string, number[]>()): Promise<number[]> {
  const encode = await loadEncoder();
  const pieces = [tools.length > 0 ? JSON.stringify(tools) : '', ...messages.flatMap(messagePieces)];
  const tokens: number[] = [];
  for (const piece of pieces) {
    let encoded = memo.get(piece);
    if (!encoded) {
      encoded = encode(piece);
      memo.set(piece, encoded);
    }
    for (const token of encoded) tokens.push(token);
  }
  return tokens;
}

export class PromptCache {
  /** What was reported, request by request: what a test or a benchmark compares the engine's figures with. */
  readonly reports: CacheReport[] = [];
  /** Block hash → when a request last had it. */
  private readonly blocks = new Map<string, number>();
  /** Each distinct piece is tokenized once: the requests of a loop repeat almost all of theirs. */
  private readonly pieces = new Map<string, number[]>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: PromptCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? defaultTtlMs;
    this.now = options.now ?? Date.now;
  }

  /** The usage for a request answered with `reply`, its prefix looked up and then kept for later requests. */
  async usage(request: PromptRequest, reply: { text: string | null; toolCalls: readonly PlannedToolCall[] }): Promise<PlannedUsage & { cachedTokens: number }> {
    const encode = await loadEncoder();
    const tokens = await requestTokens(request, this.pieces);
    const cachedTokens = this.lookUpAndKeep(tokens);
    const completionTokens = encode(reply.text ?? '').length + reply.toolCalls.reduce((sum, call) => sum + encode(call.name).length + encode(call.arguments).length, 0);
    this.reports.push({ promptTokens: tokens.length, cachedTokens, completionTokens });
    // Rendered on the wire by the turn's usage shape (OpenAI's: prompt_tokens_details.cached_tokens).
    return { promptTokens: tokens.length, completionTokens, cachedTokens };
  }

  /** The cached prefix of `tokens` in whole blocks (0 below the minimum); every block of it is then kept as used now. */
  private lookUpAndKeep(tokens: readonly number[]): number {
    const now = this.now();
    let previous = '';
    let matched = 0;
    let matching = true;
    for (let start = 0; start + blockTokens <= tokens.length; start += blockTokens) {
      const hash = createHash('sha256').update(previous).update(Uint32Array.from(tokens.slice(start, start + blockTokens))).digest('hex');
      const lastUsed = this.blocks.get(hash);
      if (matching && lastUsed !== undefined && now - lastUsed <= this.ttlMs) matched += blockTokens;
      else matching = false;
      this.blocks.set(hash, now);
      previous = hash;
    }
    return matched >= minCachedTokens ? matched : 0;
  }
}
