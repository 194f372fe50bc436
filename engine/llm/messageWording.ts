/** Wording every model-server message shares: the server's URL as shown, attempts and durations, a web page where the API should be. */

/** A base URL fit to show: without any user name or password it may carry. */
export function shownUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.username === '' && url.password === '') return baseUrl;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return baseUrl;
  }
}

/** What a server answered where the API should have, when it is not JSON or a stream. */
export interface NotTheApi {
  baseUrl: string;
  /** The request, when the sentence names it ("GET /models"). */
  request?: string;
  contentType: string;
  /** What the API answers there: "a model stream", "a model list". */
  expected: string;
}

/** A web server's page, or a proxy's, where the API should answer: the base URL is the thing to check. */
export function notTheApiMessage({ baseUrl, request, contentType, expected }: NotTheApi): string {
  const answered = request === undefined ? 'answered' : `answered ${request}`;
  return (
    `The model server at ${shownUrl(baseUrl)} ${answered} with ${describeBody(contentType)}, not ${expected}. ` +
    'Check the base URL: OpenAI-compatible servers usually serve under /v1, and a proxy may be showing its own page.'
  );
}

/** Whether a content type is a web page's. */
export const isWebPage = (contentType: string) => /html/i.test(contentType);

function describeBody(contentType: string): string {
  if (isWebPage(contentType)) return 'a web page (HTML)';
  return `"${contentType.split(';')[0]?.trim() ?? contentType}" content`;
}

/** ", 3 times in a row" after a failure that happened on every attempt; nothing after a single one. */
export function attemptsNote(attempts: number): string {
  return attempts <= 1 ? '' : `, ${attempts} times in a row`;
}
