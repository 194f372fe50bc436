/**
 * Base URLs whose server refused a request with cache hints (HTTP 400) and took it without them: they
 * get no hints for the rest of the process, so a strict server costs one extra request, once.
 */
const refusedBy = new Set<string>();

export function hintsRefusedBy(baseUrl: string): boolean {
  return refusedBy.has(baseUrl);
}

export function rememberHintRefusal(baseUrl: string): void {
  refusedBy.add(baseUrl);
}
