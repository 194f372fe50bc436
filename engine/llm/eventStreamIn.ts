/**
 * A body that is not labelled an event stream, looked at from its first bytes on: an event stream labelled
 * otherwise (`text/plain` from some proxies, `application/json` from others) is handed back to be read live,
 * as it comes, like any stream; anything else is read whole and returned as text.
 */
export async function eventStreamIn(body: ReadableStream<Uint8Array>, clock: { heard(): void }): Promise<AsyncIterable<Uint8Array> | string> {
  const iterator = body[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  const decoder = new TextDecoder();
  let text = '';
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    clock.heard();
    head.push(next.value);
    text += decoder.decode(next.value, { stream: true });
    // Enough to tell: a line, or more than `event:` (a first chunk may end inside `data:`).
    const start = text.trimStart();
    if (start.includes('\n') || start.length > 'event:'.length) break;
  }
  if (/^\s*(?:data:|:|event:)/.test(text)) return headThenRest(head, iterator);
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    clock.heard();
    text += decoder.decode(next.value, { stream: true });
  }
  return text + decoder.decode();
}

/** The chunks already read, then the rest of the body; leaving early lets go of the body. */
async function* headThenRest(head: readonly Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* head;
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}
