/**
 * A request's tokens as the server counted them, in one meaning whatever the server's field names:
 * `promptTokens` is every input token, `cachedTokens` and `cacheWriteTokens` are parts of it;
 * `completionTokens` is every output token, `reasoningTokens` a part of it.
 */
export interface TokenUsage {
  /** Every input token of the request: read from the cache, written to it, or neither. */
  promptTokens: number;
  /** Of the prompt, the tokens read from the server's prompt cache (0 when it says none or nothing). */
  cachedTokens: number;
  /** Of the prompt, the tokens written to the cache, which Anthropic-style caches bill apart (0 when the server does not say). */
  cacheWriteTokens: number;
  /** Every output token: the answer, tool calls and reasoning. */
  completionTokens: number;
  /** Of the output, the model's reasoning (0 when the server does not say). */
  reasoningTokens: number;
}

/** Usage as a server reported it: the tokens, and what the server says the request cost in US dollars (null when it does not say). */
export interface ReportedUsage extends TokenUsage {
  costUsd: number | null;
}
