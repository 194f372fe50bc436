/** What a request carries to help the server's prompt cache, beside the messages themselves. */
export interface CacheHints {
  /** Fields added to the request body. */
  body: Record<string, string>;
  headers: Record<string, string>;
  /** Messages marked `cacheBreakpoint` get a `cache_control` breakpoint (Claude through OpenRouter). */
  breakpoints: boolean;
}

export const noCacheHints: CacheHints = { body: {}, headers: {}, breakpoints: false };

export function carriesHints(hints: CacheHints): boolean {
  return hints.breakpoints || Object.keys(hints.body).length > 0 || Object.keys(hints.headers).length > 0;
}

/** How a server's documentation says a request names its cache key. */
type KeyChannel = { body: string } | { header: string };

/**
 * The servers whose documentation says they take a cache key on Chat Completions, by host, and how:
 * - OpenAI: `prompt_cache_key` (developers.openai.com/api/docs/guides/prompt-caching);
 * - Azure OpenAI: `prompt_cache_key` (learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching);
 * - Mistral: `prompt_cache_key` (docs.mistral.ai/…/prompt-caching);
 * - OpenRouter: `prompt_cache_key`, its sticky-routing key when no `session_id` is sent
 *   (openrouter.ai/docs/guides/best-practices/prompt-caching);
 * - xAI: the `x-grok-conv-id` header (its `prompt_cache_key` is for the Responses API only;
 *   docs.x.ai/developers/advanced-api-usage/prompt-caching);
 * - Fireworks: the `x-session-affinity` header (docs.fireworks.ai/guides/prompt-caching).
 * Every other server (DeepSeek, Groq, Together, Gemini, vLLM, llama.cpp, Ollama, LM Studio, …) caches
 * on its own and gets nothing: some refuse fields they do not know.
 */
function keyChannelOf(host: string): KeyChannel | null {
  if (host === 'api.openai.com' || host === 'api.mistral.ai' || host === 'openrouter.ai' || isAzureOpenAi(host)) return { body: 'prompt_cache_key' };
  if (host === 'api.x.ai') return { header: 'x-grok-conv-id' };
  if (host === 'api.fireworks.ai') return { header: 'x-session-affinity' };
  return null;
}

function isAzureOpenAi(host: string): boolean {
  return ['.openai.azure.com', '.cognitiveservices.azure.com', '.services.ai.azure.com'].some((suffix) => host.endsWith(suffix));
}

/** Claude through OpenRouter caches only up to `cache_control` breakpoints (at most 4 a request). */
function takesBreakpoints(host: string, model: string): boolean {
  return host === 'openrouter.ai' && (model.startsWith('anthropic/') || /claude/i.test(model));
}

function hostOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export interface CacheHintsInput {
  baseUrl: string;
  model: string;
  /** The folder's random cache key; null when there is none to send. */
  cacheKey: string | null;
}

/** The hints the server at `baseUrl` documents for `model`; none for a server that documents none. */
export function cacheHintsFor({ baseUrl, model, cacheKey }: CacheHintsInput): CacheHints {
  const host = hostOf(baseUrl);
  if (host === null) return noCacheHints;
  const channel = cacheKey === null ? null : keyChannelOf(host);
  return {
    body: channel !== null && 'body' in channel ? { [channel.body]: cacheKey as string } : {},
    headers: channel !== null && 'header' in channel ? { [channel.header]: cacheKey as string } : {},
    breakpoints: takesBreakpoints(host, model),
  };
}
