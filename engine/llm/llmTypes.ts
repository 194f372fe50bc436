import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Phase, PromptCaching, ToolMode, UserPrice } from '../contract/index.js';
import type { ToolDefinition } from '../tools/toolCatalog.js';
import type { TokenUsage } from './usage/tokenUsage.js';

/**
 * A message as the Chat Completions API takes it. `cacheBreakpoint` marks where a stable prefix ends:
 * `true` after the whole message (the system message, the last message of a turn), a number after that
 * many characters of its text (the stable sections of a phase's user message, before the ones that
 * change). The client turns the mark into a `cache_control` breakpoint for servers that cache only up
 * to one (Claude through OpenRouter) and removes it for every other, so the mark never reaches a server
 * and the text they get is the same either way.
 */
export type ChatMessage = ChatCompletionMessageParam & { cacheBreakpoint?: true | number };

/** One model and the server it is reached at, with what a run needs to know of it. */
export interface ModelConnection {
  baseUrl: string;
  /** null for local servers that need none. */
  apiKey: string | null;
  model: string;
  /**
   * The model's context window in tokens, reported with every usage event; null when Settings leaves it
   * automatic, and a run learns it from the server (discoverContextWindow).
   */
  contextWindow: number | null;
  /** Where a set window comes from, as the context-window line names it: "Settings" when absent (a host's flag names itself). */
  contextWindowFrom?: string;
  /** The user's price for this model, which overrides any other; none when absent. */
  price?: UserPrice | null;
}

/** Where and how to reach the model; resolved by the host from its settings before each run. */
export interface LlmSettings extends ModelConnection {
  toolMode: ToolMode;
  /** Attempts after the first for a failed call worth retrying; the client's default (4) when absent. */
  retries?: number;
  /** `off`: no cache hints at all; `auto` when absent. */
  promptCaching?: PromptCaching;
  /** The phases that run on another model or connection than the one above; the others run on it. */
  phaseModels?: Partial<Record<Phase, ModelConnection>>;
}

/** One tool call of a reply, assembled from its stream fragments. */
export interface LlmToolCall {
  /** As the server sent it, or invented (`call_<n>`) when it sent none. */
  id: string;
  name: string;
  /** JSON text as streamed, or an object from servers that send one; executeToolCall accepts both. */
  arguments: unknown;
  /**
   * Provider data that must go back with this call in the next request, as sent: Gemini's
   * `extra_content: { google: { thought_signature } }`. Absent for most servers.
   */
  extraContent?: unknown;
}

/** A reply's tokens in one meaning whatever the server (TokenUsage), and what the request cost. */
export interface LlmUsage extends TokenUsage {
  /** True when the server sent no usage and the counts come from the tokenizer (nothing then counts as cached). */
  estimated: boolean;
  /** In US dollars; null when no price is known for the model (see requestCost.ts). */
  costUsd: number | null;
}

export interface LlmReply {
  /** All text content of the reply (empty when it only called tools). */
  text: string;
  /**
   * The model's reasoning, when the server streams it apart from the answer (`reasoning_content`,
   * `reasoning`, Mistral's thinking parts). Kept out of `text`: never part of research.md or a summary.
   */
  reasoning: string;
  /**
   * Fields that must go back on the assistant message in the next request of the same tool loop, as the
   * server sent them (`reasoning_content` for DeepSeek's thinking mode, `reasoning_details` through
   * OpenRouter); empty for servers that want nothing back.
   */
  reasoningEcho: Record<string, unknown>;
  toolCalls: LlmToolCall[];
  /** As sent by the server ('stop', 'tool_calls', 'length', …); a reply without one is an error, never returned. */
  finishReason: string;
  usage: LlmUsage;
}

export interface LlmRequest {
  messages: ChatMessage[];
  /** Native tools; omitted or empty means a call without tools. */
  tools?: ToolDefinition[];
}

export interface CompleteOptions {
  /** Aborts the call at once; the promise then rejects with an LlmError of kind 'cancelled'. */
  signal: AbortSignal;
  /**
   * Text as it streams. Across a retried attempt the text is delivered once: a retry that repeats what
   * was already delivered only delivers what is new.
   */
  onTextDelta?: (text: string) => void;
  /** What the call is doing while nothing else shows it: waiting, queued, thinking, answering, retrying. */
  onStatus?: (status: LlmStatus) => void;
}

/** Told as it changes, so a person sees why nothing seems to happen. */
export type LlmStatus =
  /** The request is sent; no answer has started yet. */
  | { state: 'waiting' }
  /** The server keeps the connection alive with SSE comments but has not started the reply: it is queueing the request. */
  | { state: 'queued' }
  /** The model streams its reasoning. */
  | { state: 'thinking' }
  /** The model streams its answer or tool calls. */
  | { state: 'answering' }
  /** The attempt failed in a way worth trying again; the next starts after `delayMs`. */
  | { state: 'retrying'; attempt: number; attempts: number; delayMs: number; reason: string };

export interface LlmClient {
  readonly baseUrl: string;
  readonly model: string;
  complete(request: LlmRequest, options: CompleteOptions): Promise<LlmReply>;
}

export type LlmErrorKind =
  /** 401/403: the key is missing, wrong or not allowed. */
  | 'auth'
  /** 404 for the model: no such model on this server. */
  | 'model-not-found'
  /** No connection could be made (refused, DNS, TLS, timeout before headers). */
  | 'unreachable'
  /** 429 after the client's own retries. */
  | 'rate-limited'
  /** The account has no credit or quota left (402, OpenAI's `insufficient_quota`): retrying cannot help. */
  | 'quota'
  /** 5xx after retries, or any other unexpected status. */
  | 'server'
  /** 400/422: the server refused the request itself. */
  | 'bad-request'
  /** The request did not fit the model's context window, as the server said (any status, or mid-stream). */
  | 'context-exceeded'
  /** The server refused the request because this model or server has no tool calling. */
  | 'tools-unsupported'
  /** The stream ended without a finish_reason, after retries. */
  | 'truncated'
  /** No data for longer than the idle timeout after the headers, after retries. */
  | 'stalled'
  /** The connection dropped mid-stream, after retries. */
  | 'dropped'
  /** The server answered with something that is not a model stream (a web page, lines that are not JSON, no choices), after retries. */
  | 'garbled'
  /** The caller's signal aborted the call. */
  | 'cancelled';

/** A failed model call, with one plain sentence a user can act on (it names the base URL and what to check). */
export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    /** For 'context-exceeded': the window in tokens, when the server's words name it. */
    readonly contextLimit?: number,
  ) {
    super(message);
  }
}
