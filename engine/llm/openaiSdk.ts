import { OpenAI } from 'openai';

export interface OpenAiSdkOptions {
  baseUrl: string;
  /** null for local servers that need none. */
  apiKey: string | null;
  /** The SDK's own retries of 429, 5xx and connection failures; chat calls retry themselves and pass 0. */
  maxRetries: number;
  /** Until the response headers arrive, in ms; the SDK's default (10 minutes) when absent. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The SDK insists on a key; servers that need none ignore whatever is sent. */
const PLACEHOLDER_API_KEY = 'no-key';

/**
 * The OpenAI SDK as every call to a model server uses it: configured by the host's settings alone,
 * silent (its logger would print to stderr), and reading error bodies as servers really send them.
 */
export function openAiSdk(options: OpenAiSdkOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    // The host resolves every setting; nothing is picked up from OPENAI_ORG_ID or OPENAI_PROJECT_ID.
    organization: null,
    project: null,
    maxRetries: options.maxRetries,
    logLevel: 'off',
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    fetch: errorBodiesAsObjects(options.fetch ?? fetch),
  });
}

/**
 * Error bodies in OpenAI's shape (`{"error": {"message": …}}`), where the SDK reads the server's words;
 * in any other it finds no `error` and reports "status code (no body)", and the words are lost (a context
 * overflow then goes unrecognised). Servers' other shapes are handed on in OpenAI's:
 * - Gemini's OpenAI-compatible endpoint: a JSON array (`[{"error": {…}}]`), its first element;
 * - vLLM and SGLang: the error's fields at the top (`{"object": "error", "message": …, "type": …, "code": 400}`);
 * - FastAPI-based servers: `{"detail": "…"}`, or a list of `{"msg": …}` for a request that does not validate.
 */
function errorBodiesAsObjects(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let body = text;
    try {
      const shaped = openAiErrorBody(JSON.parse(text));
      if (shaped !== null) body = JSON.stringify(shaped);
    } catch {
      // Not JSON after all: handed on as it came.
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The body in OpenAI's error shape; null when it is in it already, or in none this knows. */
function openAiErrorBody(parsed: unknown): unknown {
  if (Array.isArray(parsed)) return isObject(parsed[0]) ? parsed[0] : null;
  if (!isObject(parsed) || isObject(parsed['error'])) return null;
  // NestJS-based proxies: `{"statusCode": 400, "message": …, "error": "Bad Request"}`, the words in `message`.
  if (typeof parsed['message'] === 'string') {
    const { message, type, code, param } = parsed;
    return { error: { message, type, code, param } };
  }
  const detail = parsed['detail'];
  if (typeof detail === 'string') return { error: { message: detail } };
  if (Array.isArray(detail)) {
    const messages = detail.map((item) => (isObject(item) && typeof item['msg'] === 'string' ? item['msg'] : null)).filter((message) => message !== null);
    if (messages.length > 0) return { error: { message: messages.join('; ') } };
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
