import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { clientFor, collect, fetchRawStream, reassemble, userMessage } from './fakeLlmHelpers.js';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('fake LLM streaming', () => {
  const fake = useFakeLlm();

  it('streams text in several pieces that reassemble, then stop and a usage chunk', async () => {
    const text = 'The quick brown fox jumps over the lazy dog, twice over. ✨';
    fake().enqueue({ text });
    const chunks = await collect(
      await clientFor(fake()).chat.completions.create({
        model: 'fake-model',
        messages: userMessage,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );

    const contentChunks = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(contentChunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'fake-model')).toBe(true);
    const reassembled = reassemble(chunks);
    expect(reassembled.text).toBe(text);
    expect(reassembled.finishReasons.filter((reason) => reason !== null)).toEqual(['stop']);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    const completionTokens = Math.ceil(text.length / 4);
    expect(last?.usage).toEqual({ prompt_tokens: 1, completion_tokens: completionTokens, total_tokens: 1 + completionTokens });
  });

  it('sends no usage chunk unless include_usage is asked for', async () => {
    fake().enqueue({ text: 'hello there' });
    const chunks = await collect(
      await clientFor(fake()).chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true }),
    );

    expect(chunks.every((chunk) => chunk.choices.length === 1 && chunk.usage === undefined)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('frames the wire exactly as OpenAI does: data lines, blank-line separated, ending in [DONE]', async () => {
    fake().enqueue({ text: 'wire check' });
    const raw = await fetchRawStream(fake(), {});

    expect(raw.status).toBe(200);
    expect(raw.contentType).toBe('text/event-stream');
    expect(raw.wire).toMatch(/^(data: \{.*\}\n\n)+data: \[DONE\]\n\n$/);
    expect(raw.events.at(-1)).toBe('[DONE]');
  });

  it('streams a tool call with name and id on the first fragment only and arguments split across fragments', async () => {
    const args = { city: 'Zürich', units: 'metric', days: [1, 2, 3] };
    fake().enqueue({ toolCalls: [{ name: 'get_weather', arguments: args, id: 'call_w' }] });
    const chunks = await collect(
      await clientFor(fake()).chat.completions.create({
        model: 'fake-model',
        messages: userMessage,
        tools: [weatherTool],
        stream: true,
      }),
    );

    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    expect(fragments[0]).toMatchObject({ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather' } });
    for (const continuation of fragments.slice(1)) {
      expect(continuation).toEqual({ index: 0, function: { arguments: expect.any(String) } });
    }
    const reassembled = reassemble(chunks);
    expect(reassembled.toolCalls).toEqual([{ id: 'call_w', name: 'get_weather', arguments: JSON.stringify(args) }]);
    expect(reassembled.finishReasons.filter((reason) => reason !== null)).toEqual(['tool_calls']);
  });

  it('keeps string arguments byte for byte', async () => {
    const args = '{ "city" :"Oslo" }';
    fake().enqueue({ toolCalls: [{ name: 'get_weather', arguments: args }] });
    const chunks = await collect(
      await clientFor(fake()).chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true }),
    );

    expect(reassemble(chunks).toolCalls[0]).toEqual({ id: 'call_fake_0_0', name: 'get_weather', arguments: args });
  });

  it('streams two parallel tool calls keyed by index', async () => {
    fake().enqueue({
      text: 'Checking both.',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: 'Rome' } },
      ],
    });
    const chunks = await collect(
      await clientFor(fake()).chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true }),
    );

    const reassembled = reassemble(chunks);
    expect(reassembled.text).toBe('Checking both.');
    expect(reassembled.toolCalls).toEqual([
      { id: 'call_fake_0_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_fake_0_1', name: 'get_weather', arguments: '{"city":"Rome"}' },
    ]);
  });

  it("satisfies the SDK's stream() helper, whose final completion carries the tool calls", async () => {
    fake().enqueue({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Lima' } },
        { name: 'read_file', arguments: { path: 'src/a b.ts' } },
      ],
    });
    const stream = clientFor(fake()).chat.completions.stream({
      model: 'fake-model',
      messages: userMessage,
      tools: [weatherTool],
    });
    const completion = await stream.finalChatCompletion();

    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(
      choice?.message.tool_calls?.map((call) => (call.type === 'function' ? [call.function.name, call.function.arguments] : [])),
    ).toEqual([
      ['get_weather', '{"city":"Lima"}'],
      ['read_file', '{"path":"src/a b.ts"}'],
    ]);
  });

  it('waits delayMs before each chunk', async () => {
    fake().enqueue({ text: 'slow and steady', delayMs: 10 });
    const startedAt = performance.now();
    const chunks = await collect(
      await clientFor(fake()).chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true }),
    );

    expect(reassemble(chunks).text).toBe('slow and steady');
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(10 * (chunks.length - 1));
  });
});
