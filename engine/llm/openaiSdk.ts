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
 * Gemini's OpenAI-compatible endpoint answers errors with a JSON array (`[{"error": {…}}]`), in which
 * the SDK finds no `error` and reports "status code (no body)". The first element is handed on instead,
 * so its message reaches the user like any other server's.
 */
function errorBodiesAsObjects(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let body = text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed) && typeof parsed[0] === 'object' && parsed[0] !== null) body = JSON.stringify(parsed[0]);
    } catch {
      // Not JSON after all: handed on as it came.
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
