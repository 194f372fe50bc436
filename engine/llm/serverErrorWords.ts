import type { APIError } from 'openai';

const SERVER_MESSAGE_LIMIT = 200;

/**
 * How servers say that they, or the model loaded in them, cannot do native tool calling:
 * Ollama "qwen:4b does not support tools" (400); vLLM "\"auto\" tool choice requires
 * --enable-auto-tool-choice and --tool-call-parser to be set" (400); llama.cpp "tools param requires
 * --jinja flag" (400, 500 in some versions); OpenAI "tools is not supported in this model" (400);
 * Azure "Functions are not supported for this API version or this model version" (400); Gemini "Tool
 * use with function calling is unsupported" (400); and 501 Not Implemented from smaller servers.
 */
const TOOLS_UNSUPPORTED_PATTERNS = [
  /\b(?:does not|doesn't|do not|don't|cannot|can't) support (?:native )?(?:tools?|tool[ _-]?(?:use|calls?|calling)|functions?|function[ _-]?(?:calls?|calling))\b/i,
  /\b(?:tools?|tool[ _-]?(?:use|calls?|calling|choice)|functions|function[ _-]?calling)\b[^.]{0,60}\b(?:not supported|unsupported|not enabled|not available)\b/i,
  /--enable-auto-tool-choice|tools? param(?:eter)? requires --jinja/i,
];

/** The statuses a server may answer a request for tools with when it cannot use them. */
export const TOOLS_UNSUPPORTED_STATUSES = new Set([400, 404, 422, 500, 501]);

export function saysToolsUnsupported(words: string): boolean {
  return TOOLS_UNSUPPORTED_PATTERNS.some((pattern) => pattern.test(words));
}

/**
 * How servers say a request does not fit the model's context window: OpenAI, Azure, Groq and DeepSeek
 * (code `context_length_exceeded`, "This model's maximum context length is 8192 tokens. However, your
 * messages resulted in …"), OpenRouter ("This endpoint's maximum context length is …"), vLLM ("… longer
 * than the maximum model length of 4096", "Input prompt (5000 tokens) is too long and exceeds limit of
 * 4096"), llama.cpp ("the request exceeds the available context size, try increasing it", type
 * `exceed_context_size_error`), LM Studio ("… the model is loaded with context length of only 4096
 * tokens, which is not enough"; "Input does not fit in context length. The input has 31430 tokens, but the
 * context length only supports 30000 tokens"; its MLX engine "Context size has been exceeded"), Ollama ("prompt too long; exceeded max context length by 120 tokens"),
 * Anthropic's compatible endpoint ("prompt is too long: 210000 tokens > 200000 maximum"), Gemini ("The
 * input token count (40000) exceeds the maximum number of tokens allowed (32768)") and Mistral ("Prompt
 * contains 40000 tokens … too large for model with 32768 maximum context length").
 */
const CONTEXT_EXCEEDED_PATTERNS = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /exceeds? (?:the )?(?:available )?context (?:size|length|window)/i,
  /exceed_context_size/i,
  /(?:longer|larger) than the maximum (?:model|context) length/i,
  /is too long and exceeds limit/i,
  /loaded with (?:a )?context length of only/i,
  /(?:prompt|input|request) (?:is )?too (?:long|large)/i,
  /exceeded max context length/i,
  /input token count .* exceeds the maximum/i,
  /context window (?:is )?(?:full|exceeded)/i,
  /does not fit in (?:the )?context/i,
  /context (?:size|length) has been exceeded/i,
];

/** The window a context error names, when it names one: "maximum context length is 8192", "… of only 4096 tokens", "(32768)", "> 200000 maximum". */
const CONTEXT_LIMIT_PATTERNS = [
  /maximum context length (?:is|of) (\d+)/i,
  /maximum (?:model|context) length of (\d+)/i,
  /exceeds limit of (\d+)/i,
  /context length of only (\d+)/i,
  /maximum number of tokens allowed \((\d+)\)/i,
  /> (\d+) maximum/i,
  /with (\d+) maximum context length/i,
  /n_ctx(?:_slot)?[ =:]+(\d+)/i,
  /context length only supports (\d+)/i,
];

/**
 * A limit of the account rather than of the model: Groq answers a request over its tokens-per-minute
 * limit with 413 "Request too large for model … on tokens per minute (TPM)", code `rate_limit_exceeded`.
 */
const RATE_LIMIT_WORDS = /rate[_ ]limit|per minute|per day|\b(?:TPM|RPM|TPD|RPD)\b/i;

export function saysRateLimited(words: string, code?: unknown): boolean {
  return code === 'rate_limit_exceeded' || RATE_LIMIT_WORDS.test(words);
}

export function saysContextExceeded(words: string, code?: unknown): boolean {
  if (saysRateLimited(words, code)) return false;
  return code === 'context_length_exceeded' || CONTEXT_EXCEEDED_PATTERNS.some((pattern) => pattern.test(words));
}

/** The account has no credit or quota left: OpenAI's 429 `insufficient_quota`, and 402 Payment Required (OpenRouter, DeepSeek). */
export function saysOutOfQuota(status: number | undefined, words: string, code?: unknown): boolean {
  return status === 402 || code === 'insufficient_quota' || /insufficient[_ ](?:quota|balance|credits?)|exceeded your current quota/i.test(words);
}

export function contextLimitIn(words: string): number | undefined {
  for (const pattern of CONTEXT_LIMIT_PATTERNS) {
    const tokens = Number(pattern.exec(words)?.[1]);
    if (Number.isSafeInteger(tokens) && tokens > 0) return tokens;
  }
  return undefined;
}

/** The server's own words in an error answer, trimmed to one short line with no key in it. */
export function serverWords(error: APIError, apiKey: string | null): string {
  const body: unknown = error.error;
  let words: string;
  if (typeof body === 'string') words = body;
  else if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') words = body.message;
  else words = error.message.replace(/^\d{3} /, '').replace(/^status code \(no body\)$/, '');
  return shownWords(words, apiKey);
}

export function shownWords(words: string, apiKey: string | null): string {
  const line = withoutSecrets(words, apiKey).replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return line.length > SERVER_MESSAGE_LIMIT ? `${line.slice(0, SERVER_MESSAGE_LIMIT)}…` : line;
}

/** Words fit to show: the API key, anything shaped like one, and the user name and password of any URL cut out. */
export function withoutSecrets(words: string, apiKey: string | null): string {
  const keyless = apiKey ? words.split(apiKey).join('[key]') : words;
  return keyless.replace(/\bsk-[\w*-]{4,}/g, '[key]').replace(/\b([a-z][\w+.-]*:\/\/)[^\s/?#@]*@/gi, '$1');
}

/**
 * Why a connection failed: the error code of the first cause that has one (ECONNREFUSED, ENOTFOUND,
 * UND_ERR_…), else the innermost cause's own words (fetch's "bad port"), else null. Those words can
 * quote the request's URL, credentials and all ("Request cannot be constructed from a URL that
 * includes credentials: …"), so secrets are cut out of them.
 */
export function connectionReason(error: unknown, apiKey: string | null): string | null {
  const words = connectionCode(error) ?? innermostMessage(error);
  return words === null ? null : withoutSecrets(words, apiKey);
}

function innermostMessage(error: unknown): string | null {
  let message: string | null = null;
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    message = cause.message;
    cause = cause.cause;
  }
  return message && message !== 'fetch failed' && message !== 'Connection error.' ? message : null;
}

/** The error code of the first cause that has one, if any. */
function connectionCode(error: unknown): string | null {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth++) {
    if ('code' in cause && typeof cause.code === 'string') return cause.code;
    if (cause instanceof AggregateError) {
      const inner = connectionCode(cause.errors[0]);
      if (inner) return inner;
    }
    cause = 'cause' in cause ? cause.cause : undefined;
  }
  return null;
}
