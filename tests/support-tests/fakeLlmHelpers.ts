import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { FakeLlm, WireChunk } from '../support/fakeLlm/index.js';

export function clientFor(llm: FakeLlm, apiKey = 'test'): OpenAI {
  return new OpenAI({ baseURL: llm.baseUrl, apiKey, maxRetries: 0 });
}

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

export interface Reassembled {
  text: string;
  toolCalls: { id: string | undefined; name: string; arguments: string }[];
  finishReasons: (string | null)[];
}

/** Joins content pieces and tool-call fragments by index, the way a client reassembles a stream. */
export function reassemble(chunks: readonly ChatCompletionChunk[]): Reassembled {
  const result: Reassembled = { text: '', toolCalls: [], finishReasons: [] };
  for (const choice of chunks.flatMap((chunk) => chunk.choices)) {
    result.text += choice.delta.content ?? '';
    for (const fragment of choice.delta.tool_calls ?? []) {
      const call = (result.toolCalls[fragment.index] ??= { id: undefined, name: '', arguments: '' });
      call.id ??= fragment.id;
      call.name += fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
    }
    result.finishReasons.push(choice.finish_reason);
  }
  return result;
}

export interface RawStream {
  status: number;
  contentType: string | null;
  /** The response body exactly as received. */
  wire: string;
  /** The `data:` payload of every event, `[DONE]` included. */
  events: string[];
  /** The events other than `[DONE]`, parsed. */
  chunks: WireChunk[];
}

/** Posts a streaming request with fetch so tests can see the bytes the SDK would hide or reject. */
export async function fetchRawStream(llm: FakeLlm, body: Record<string, unknown>): Promise<RawStream> {
  const response = await fetch(`${llm.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test' },
    body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], stream: true, ...body }),
  });
  const wire = await response.text();
  const events = wire
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => frame.replace(/^data: /, ''));
  const chunks = events.filter((event) => event !== '[DONE]').map((event) => JSON.parse(event) as WireChunk);
  return { status: response.status, contentType: response.headers.get('content-type'), wire, events, chunks };
}

export const userMessage = [{ role: 'user' as const, content: 'hi' }];
