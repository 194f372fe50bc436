import type { IncomingHttpHeaders } from 'node:http';
import type { CacheHintMode } from './cacheHints.js';

/** One tool call the fake model makes. `arguments` given as an object is serialised with JSON.stringify. */
export interface ScriptedToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  /** Defaults to a deterministic `call_fake_<turn>_<position>`. */
  id?: string;
}

/**
 * Token counts to report instead of the character-based estimate, in the engine's meaning: the prompt
 * holds the cached and cache-written tokens, the completion holds the reasoning. The usage shape decides
 * how they go on the wire.
 */
export interface ScriptedUsage {
  promptTokens?: number;
  completionTokens?: number;
  /** Of the prompt, read from the cache. */
  cachedTokens?: number;
  /** Of the prompt, written to the cache. */
  cacheWriteTokens?: number;
  /** Of the completion, reasoning. */
  reasoningTokens?: number;
  /** What the server says the request cost, in dollars (shapes `openrouter` and `xai` send it). */
  costUsd?: number;
}

/**
 * How a server names its usage counts (where they go is a quirk: `usage-on-finish-chunk`,
 * `usage-in-x-groq`, `usage-in-choice`, `usage-as-timings`).
 * - `openai` (OpenAI, vLLM, Groq, llama.cpp's usage): `prompt_tokens` with everything in it,
 *   `prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`; the details only
 *   when scripted.
 * - `deepseek`: `prompt_cache_hit_tokens` + `prompt_cache_miss_tokens` = `prompt_tokens`.
 * - `anthropic`: Anthropic's names: `input_tokens` without the cache, `output_tokens`,
 *   `cache_read_input_tokens`, `cache_creation_input_tokens`.
 * - `anthropic-proxy`: a proxy passing Anthropic's counts on (early LiteLLM): `prompt_tokens` without the
 *   cache beside `cache_read_input_tokens` and `cache_creation_input_tokens`.
 * - `litellm`: LiteLLM's documented format: `prompt_tokens` with the cache reads, `cached_tokens` in the
 *   details, and `cache_creation_input_tokens` left out of `prompt_tokens`.
 * - `openrouter`: `cached_tokens` and `cache_write_tokens` in the details, `cost` in dollars.
 * - `moonshot` (Kimi): `cached_tokens` at the top of usage.
 * - `xai`: `reasoning_tokens` counted apart from `completion_tokens` (in `total_tokens`), and
 *   `cost_in_usd_ticks` (10^10 to the dollar).
 */
export type UsageShape = 'openai' | 'deepseek' | 'anthropic' | 'anthropic-proxy' | 'litellm' | 'openrouter' | 'moonshot' | 'xai';

/**
 * A fault breaks the exchange the way real providers and networks do.
 * `http-*` faults answer with OpenAI's error status and body; the rest shape the stream.
 */
export type Fault =
  | { type: 'http-401' }
  | { type: 'http-404-model' }
  | { type: 'http-429'; retryAfterSeconds?: number }
  | { type: 'http-500' }
  /** Sends `afterChunks` chunks (default: half of them, at least one) then destroys the socket. */
  | { type: 'drop-mid-stream'; afterChunks?: number }
  /** Sends headers and `afterChunks` chunks (default 1), then nothing until the client aborts or close(). */
  | { type: 'stall-after-headers'; afterChunks?: number }
  /** The stream ends with `[DONE]` but no chunk ever carries a finish_reason. */
  | { type: 'no-finish-reason' }
  /** Tool-call arguments are truncated so they are not valid JSON. */
  | { type: 'malformed-arguments' }
  | { type: 'http-403' }
  /** Any status with any body: Gemini's JSON array of errors, a context-length refusal, a proxy's page. */
  | { type: 'http-error'; status: number; body: unknown; headers?: Record<string, string> }
  /** Accepts the request and never sends the headers. */
  | { type: 'no-response' }
  /** After `afterChunks` chunks (default 1), an error in one of the shapes real servers stream it in (see ErrorFrameShape). */
  | { type: 'error-frame'; shape: ErrorFrameShape; message?: string; code?: number | string; afterChunks?: number }
  /** After `afterChunks` chunks (default 1), a data line that is not JSON. */
  | { type: 'garbled-line'; afterChunks?: number }
  /** HTTP 200 with a web page instead of a stream (a proxy's login page, a web server's index). */
  | { type: 'html-page' }
  /** A stream whose every chunk has `choices: []`, then `[DONE]`. */
  | { type: 'no-choices' }
  /**
   * `[DONE]` goes out on its own, and the body ends `endAfterMs` later (default 20): a server or proxy that
   * flushes each event as it comes and closes the chunked body after, as its own packet.
   */
  | { type: 'late-end'; endAfterMs?: number }
  /** `[DONE]`, then the body is left open (a proxy holding the connection) until the client lets go or close(). */
  | { type: 'open-after-done' };

/**
 * How servers stream an error: `openai` `data: {"error": {…}}` (OpenAI, llama.cpp, vLLM); `vllm-flat`
 * `data: {"object": "error", "message": …}`; `llamacpp-field` the non-standard line `error: {…}` then
 * `data: [DONE]` (older llama.cpp); `openrouter` a chunk with a top-level `error` and `finish_reason:
 * "error"`; `event-error` an `event: error` with the error as data.
 */
export type ErrorFrameShape = 'openai' | 'vllm-flat' | 'llamacpp-field' | 'openrouter' | 'event-error';

/** Faults that need no parameters, nameable by their type alone. */
export type FaultName = Exclude<Fault, { type: 'http-error' | 'error-frame' }>['type'];

/**
 * Deviations from OpenAI's framing seen in local servers (Ollama, LM Studio, vLLM). They combine.
 * The fragment quirks only exist in streams; the others also shape non-streaming answers.
 */
export type Quirk =
  | 'fragments-without-index'
  | 'fragments-without-id'
  | 'empty-name-on-continuation'
  | 'tool-calls-finish-with-stop'
  /** Each call arrives whole in one fragment with `function.arguments` as a JSON object. */
  | 'arguments-as-object'
  /** Reasoning in `delta.reasoning` (OpenRouter, Ollama, Groq) instead of `reasoning_content` (DeepSeek, vLLM, llama.cpp). */
  | 'reasoning-field'
  /** OpenRouter: `delta.reasoning` with `delta.reasoning_details` beside it. */
  | 'reasoning-details'
  /** Mistral's magistral models: `delta.content` as an array of parts, reasoning as `thinking` parts. */
  | 'content-as-parts'
  /** Usage on the chunk that carries finish_reason (DeepSeek, Mistral), not a chunk of its own. */
  | 'usage-on-finish-chunk'
  /** Usage only inside `x_groq` on the last chunk (Groq). */
  | 'usage-in-x-groq'
  /** No usage, only llama.cpp's `timings` (prompt_n processed, cache_n from the cache, predicted_n) on the last chunk. */
  | 'usage-as-timings'
  /** Usage inside the finish chunk's choice, `choices[0].usage`, not at the top (Moonshot/Kimi). */
  | 'usage-in-choice'
  /** No `finish_reason` key at all until the last chunk. */
  | 'finish-reason-key-absent'
  /** Azure: a first chunk with empty `choices` and `prompt_filter_results`, and a trailing choice with no delta. */
  | 'azure-filter-chunks'
  /** Gemini: each call's first fragment carries `extra_content.google.thought_signature`. */
  | 'thought-signatures'
  /** Tool-call indexes start at 1 instead of 0. */
  | 'indexes-from-1'
  /** Every call on index 0, told apart only by id. */
  | 'index-0-for-every-call'
  /** The call's id repeated on every fragment. */
  | 'id-on-every-fragment'
  /** `id: null` on continuations. */
  | 'null-id-on-continuation'
  /** A new id on every fragment of one call (lmdeploy, Poolside). */
  | 'changing-id'
  /** A call's head on its index, its arguments on the next one (some gateways). */
  | 'head-and-arguments-on-different-indexes'
  /** The name repeated on every fragment. */
  | 'name-on-every-fragment'
  /** `name: null` on continuations. */
  | 'null-name-on-continuation'
  /** The head fragment has no `arguments` key. */
  | 'no-arguments-on-head'
  /** Each call whole in one fragment, arguments as text. */
  | 'whole-call-per-fragment'
  /** All calls whole, in one chunk's `tool_calls` array. */
  | 'all-calls-in-one-chunk'
  /** Each event ended by a single newline, so a standard SSE parser joins them (Baseten's GLM and Kimi deployments). */
  | 'single-newline-events'
  /** The event stream labelled `text/plain` instead of `text/event-stream` (ramalama's RAG proxy). */
  | 'stream-as-text-plain'
  /** The event stream labelled `application/json` (vllm-ascend's proxy). */
  | 'stream-as-json'
  /** Each frame sent in two pieces, the first ending inside its field name (`da` | `ta: {…}`): chunks are cut anywhere. */
  | 'frames-split-in-field';

/** `error`: OpenRouter and some gateways end a reply the backend gave up on with it. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

/** What the fake model answers to one chat completion request. */
export interface ScriptedTurn {
  text?: string;
  /** Streamed before the text, apart from it (`reasoning_content` unless a quirk says otherwise). */
  reasoning?: string;
  /** Before the first chunk, SSE comment lines (`: keep-alive`) as a server sends while the request is queued. */
  queued?: { comments: number; everyMs?: number; text?: string };
  toolCalls?: ScriptedToolCall[];
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: FinishReason;
  usage?: ScriptedUsage;
  /** How the usage counts are named; `openai` when absent. */
  usageShape?: UsageShape;
  /** Pause before each streamed chunk. */
  delayMs?: number;
  fault?: Fault | FaultName;
  quirks?: Quirk | Quirk[];
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or null when the body was empty or not JSON. */
  body: unknown;
  receivedAt: number;
}

export type Script =
  | ScriptedTurn[]
  | ((request: RecordedRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>);

/** A real server whose own endpoints, or model list, tell each model's context window (see serverInfo.ts). */
export type ServerKind = 'vllm' | 'openrouter' | 'lmstudio' | 'llamacpp' | 'ollama';

/** What the server-info endpoints say about every listed model's context window. */
export interface ServerInfo {
  kind: ServerKind;
  /** The model's own maximum (Ollama `<arch>.context_length`, LM Studio `max_context_length`, OpenRouter `context_length`). */
  modelWindow: number;
  /**
   * What the server runs it at: vLLM `max_model_len`, OpenRouter `top_provider.context_length`, llama.cpp
   * `n_ctx` (each the model's own when absent); LM Studio `loaded_context_length` and Ollama's /api/ps
   * `context_length` (the model is not loaded when absent).
   */
  servedWindow?: number;
  /** Ollama: `PARAMETER num_ctx` in the Modelfile. */
  numCtx?: number;
  /** The endpoints other than GET /v1/models never answer. */
  stall?: boolean;
  /** The endpoints other than GET /v1/models answer with a redirect to this origin. */
  redirectTo?: string;
}

export interface FakeLlmOptions {
  /**
   * Turns answered in order, or a function asked for each chat request (`index` counts chat
   * requests that reached the script, from 0). Turns passed to enqueue() are served before the function.
   */
  script?: Script;
  /** Listed by GET /v1/models; when given, chat requests for any other model get 404 model_not_found. */
  models?: string[];
  /** When given, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /**
   * A model without tool calling: a chat request that carries `tools` gets Ollama's 400 "does not
   * support tools" and consumes no turn.
   */
  toolsUnsupported?: boolean;
  /**
   * Gemini: a chat request whose assistant tool calls lack the `extra_content.google.thought_signature`
   * they were streamed with is refused with Gemini's 400 (a JSON array) and consumes no turn.
   */
  requireThoughtSignatures?: boolean;
  /**
   * DeepSeek's thinking mode: a chat request whose assistant tool-call messages lack the
   * `reasoning_content` they were streamed with is refused with DeepSeek's 400 and consumes no turn.
   */
  requireReasoningBack?: boolean;
  /** What the fake does with cache hints (see CacheHintMode); `accept` when absent. */
  cacheHints?: CacheHintMode;
  /** False: requests are answered but not kept (a soak run's thousands would fill the heap being measured). */
  keepRequests?: boolean;
  /** The model list and own endpoints of a real server kind; a plain OpenAI model list when absent. */
  serverInfo?: ServerInfo;
  /**
   * Automatic prompt caching as OpenAI does it (promptCache.ts): a repeated prefix is reported as
   * `usage.prompt_tokens_details.cached_tokens`, and FakeLlm.promptCache keeps what was reported. `true`: the defaults.
   */
  promptCache?: PromptCacheOptions | true;
  /**
   * GET /v1/models answers a web server's welcome page (HTML, status 200), as a web server in front of a
   * wrong base URL does; chat requests are answered as usual (an `html-page` turn makes them a page too).
   */
  modelListAsWebPage?: boolean;
}

/** The simulated prompt cache's settings (see promptCache.ts). */
export interface PromptCacheOptions {
  /** How long a prefix stays cached after the last request that had it; 10 minutes by default. */
  ttlMs?: number;
  /** The clock the expiry is measured by; Date.now by default. */
  now?: () => number;
}
