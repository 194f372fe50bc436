import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { type WireChunk, type WireToolCallFragment } from '../support/fakeLlm/index.js';
import { clientFor, collect, fetchRawStream, userMessage } from './fakeLlmHelpers.js';

const readFileCall = { name: 'read_file', arguments: { path: 'src/index.ts', lines: [1, 40] } };

function fragmentsOf(chunks: readonly WireChunk[]): WireToolCallFragment[] {
  return chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta?.tool_calls ?? []));
}

describe('fake LLM local-server quirks', () => {
  const fake = useFakeLlm();

  /** The SDK hands over each parsed chunk untouched; its types assume the framing these quirks break. */
  const sdkChunks = async () =>
    (await collect(
      await clientFor(fake()).chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true }),
    )) as unknown as WireChunk[];

  it('fragments-without-index: no tool-call fragment carries index', async () => {
    fake().enqueue({ toolCalls: [readFileCall], quirks: 'fragments-without-index' });
    const fragments = fragmentsOf(await sdkChunks());
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments.some((fragment) => 'index' in fragment)).toBe(false);
    expect(fragments[0]?.id).toBe('call_fake_0_0');
  });

  it('fragments-without-id: no fragment carries an id, names and arguments still arrive', async () => {
    fake().enqueue({ toolCalls: [readFileCall], quirks: ['fragments-without-id'] });
    const fragments = fragmentsOf(await sdkChunks());
    expect(fragments.some((fragment) => 'id' in fragment)).toBe(false);
    expect(fragments[0]?.function.name).toBe('read_file');
    expect(fragments.map((fragment) => fragment.function.arguments).join('')).toBe(JSON.stringify(readFileCall.arguments));
  });

  it("empty-name-on-continuation: continuation fragments carry name ''", async () => {
    fake().enqueue({ toolCalls: [readFileCall], quirks: 'empty-name-on-continuation' });
    const fragments = fragmentsOf(await sdkChunks());
    expect(fragments[0]?.function.name).toBe('read_file');
    expect(fragments.slice(1).map((fragment) => fragment.function.name)).toEqual(
      Array.from({ length: fragments.length - 1 }, () => ''),
    );
  });

  it("tool-calls-finish-with-stop: finish_reason is 'stop' although tool calls were sent", async () => {
    fake().enqueue({ toolCalls: [readFileCall], quirks: 'tool-calls-finish-with-stop' });
    const chunks = await sdkChunks();
    expect(fragmentsOf(chunks).length).toBeGreaterThan(0);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter((reason) => reason !== null && reason !== undefined)).toEqual(['stop']);
  });

  it('arguments-as-object: each call arrives whole with arguments as a JSON object on the wire', async () => {
    fake().enqueue({
      toolCalls: [readFileCall, { name: 'list_dir', arguments: '{"path":"."}' }],
      quirks: 'arguments-as-object',
    });
    const raw = await fetchRawStream(fake(), {});
    expect(raw.wire).toContain('"arguments":{"path":"src/index.ts","lines":[1,40]}');
    expect(fragmentsOf(raw.chunks)).toEqual([
      { index: 0, id: 'call_fake_0_0', type: 'function', function: { name: 'read_file', arguments: readFileCall.arguments } },
      { index: 1, id: 'call_fake_0_1', type: 'function', function: { name: 'list_dir', arguments: { path: '.' } } },
    ]);
  });

  it('quirks combine', async () => {
    fake().enqueue({
      toolCalls: [readFileCall],
      quirks: ['fragments-without-index', 'fragments-without-id', 'empty-name-on-continuation', 'tool-calls-finish-with-stop'],
    });
    const raw = await fetchRawStream(fake(), {});
    const fragments = fragmentsOf(raw.chunks);
    expect(fragments.some((fragment) => 'index' in fragment || 'id' in fragment)).toBe(false);
    expect(fragments.slice(1).every((fragment) => fragment.function.name === '')).toBe(true);
    expect(raw.chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('id and argument quirks also shape non-streaming answers', async () => {
    fake().enqueue({ toolCalls: [readFileCall], quirks: ['arguments-as-object', 'fragments-without-id', 'tool-calls-finish-with-stop'] });
    const completion = await clientFor(fake()).chat.completions.create({ model: 'fake-model', messages: userMessage });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('stop');
    expect(choice?.message.tool_calls).toEqual([
      { type: 'function', function: { name: 'read_file', arguments: readFileCall.arguments } },
    ]);
  });
});
