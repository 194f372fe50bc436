import { isWebPage } from '../messageWording.js';

/** How to ask one model server about its models, shared by every probe of one discovery. */
export interface ProbeContext {
  baseUrl: string;
  apiKey: string | null;
  fetch: typeof fetch;
  /** Each request's own limit; a request that runs out means the server is not answering. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * A probe's answer: the parsed body, `'no-answer'` (an error status, a redirect, not JSON: try the next
 * probe), `'web-page'` (a page in HTML with a success status: a web server where the API should be) or
 * `'silent'` (timed out or cancelled: ask this server nothing more).
 */
export type ProbeAnswer = { body: unknown } | 'no-answer' | 'web-page' | 'silent';

/** A probe of a server's own API that got no body: try the next probe, or ask a silent server nothing more. */
export function unanswered(answer: Exclude<ProbeAnswer, { body: unknown }>): 'no-answer' | 'silent' {
  return answer === 'silent' ? 'silent' : 'no-answer';
}

export interface ProbeRequest {
  url: string;
  /** Sent as JSON with POST; GET without one. */
  body?: unknown;
}

/**
 * One GET or POST that never throws. The API key goes only to the base URL's origin, and redirects are
 * not followed, so no server can send the key on to another.
 */
export async function probeJson(context: ProbeContext, { url, body }: ProbeRequest): Promise<ProbeAnswer> {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (context.apiKey && sameOrigin(url, context.baseUrl)) headers.authorization = `Bearer ${context.apiKey}`;
  try {
    const response = await context.fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'manual',
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      return 'no-answer';
    }
    if (isWebPage(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel();
      return 'web-page';
    }
    return { body: JSON.parse(await response.text()) as unknown };
  } catch {
    return signal.aborted ? 'silent' : 'no-answer';
  }
}

/** The base URL without its trailing `/v1`: where Ollama, LM Studio and llama.cpp serve their own APIs. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
}

function sameOrigin(url: string, baseUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
