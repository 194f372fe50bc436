import { createParser } from 'eventsource-parser';

/** One thing a server-sent event stream said. */
export type SseItem =
  /** `data:` lines, joined, with the event's name when it had one (`event: error`). */
  | { kind: 'event'; event: string | undefined; data: string }
  /** A `: …` line: a keep-alive (OpenRouter's `: OPENROUTER PROCESSING`, DeepSeek's `: keep-alive`). */
  | { kind: 'comment'; text: string }
  /** A field the SSE standard does not define, such as older llama.cpp's `error: {…}`. */
  | { kind: 'field'; field: string; value: string };

/**
 * The items of an event stream, parsed by eventsource-parser (line endings, multi-line data, a BOM and
 * chunk boundaries handled as the standard says). Unlike the OpenAI SDK's reader it keeps comments and
 * unknown fields, which real servers use for keep-alives and errors. `onBytes` hears every chunk as it
 * arrives, before it is parsed: any byte is a sign of life.
 */
export async function* sseItems(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, onBytes: () => void): AsyncGenerator<SseItem> {
  const pending: SseItem[] = [];
  const parser = createParser({
    onEvent: (message) => pending.push({ kind: 'event', event: message.event, data: message.data }),
    onComment: (text) => pending.push({ kind: 'comment', text }),
    onError: (error) => {
      if (error.type === 'unknown-field' && error.field !== undefined) pending.push({ kind: 'field', field: error.field, value: error.value ?? '' });
    },
  });
  const decoder = new TextDecoder();
  for await (const bytes of body) {
    onBytes();
    parser.feed(decoder.decode(bytes, { stream: true }));
    yield* pending.splice(0);
  }
  parser.feed(decoder.decode());
  // A last event without its blank line still counts: some servers end the stream right after it.
  parser.feed('\n\n');
  yield* pending.splice(0);
}
