import { OpenAI } from 'openai';

export interface OpenAiSdkOptions {
  baseUrl: string;
  /** null for local servers that need none. */
  apiKey: string | null;
  /** The SDK's own retries of 429, 5xx and connection failures. */
  maxRetries: number;
  /** Per request, in ms; the SDK's default (10 minutes) when absent. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The SDK insists on a key; servers that need none ignore whatever is sent. */
const PLACEHOLDER_API_KEY = 'no-key';

/** The OpenAI SDK as every call to a model server uses it: configured by the host's settings alone. */
export function openAiSdk(options: OpenAiSdkOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    // The host resolves every setting; nothing is picked up from OPENAI_ORG_ID or OPENAI_PROJECT_ID.
    organization: null,
    project: null,
    maxRetries: options.maxRetries,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
