import type { IncomingHttpHeaders } from 'node:http';

/** One tool call the fake model makes. `arguments` given as an object is serialised with JSON.stringify. */
export interface ScriptedToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  /** Defaults to a deterministic `call_fake_<turn>_<position>`. */
  id?: string;
}

/** Token counts to report instead of the character-based estimate. */
export interface ScriptedUsage {
  promptTokens?: number;
  completionTokens?: number;
}

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
  | { type: 'malformed-arguments' };

export type FaultName = Fault['type'];

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
  | 'arguments-as-object';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** What the fake model answers to one chat completion request. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: FinishReason;
  usage?: ScriptedUsage;
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
}
