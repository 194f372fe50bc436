import { describe, expect, it } from 'vitest';
import { estimateCompletionTokens, estimatePromptTokens } from '../../../engine/llm/tokenEstimate.js';
import type { Quirk, ScriptedToolCall } from '../../support/fakeLlm/index.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { clientFor, complete, parsedArguments, readFileTool, userMessages } from './llmClientHarness.js';

const twoCalls: ScriptedToolCall[] = [
  { name: 'read_file', arguments: { path: 'src/app.ts' } },
  { name: 'list_files', arguments: { path: 'src', depth: 2 } },
];

/** Strips stream_options from the request, like a server that ignores include_usage and sends no usage. */
const fetchWithoutUsage: typeof fetch = (input, init) => {
  const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
  delete body['stream_options'];
  return fetch(input, { ...init, body: JSON.stringify(body) });
};

describe('LLM client: replies', () => {
  const fake = useFakeLlm();

  it('streams text to onTextDelta and returns it whole, with the server reported usage', async () => {
    const text = 'src/app.ts exports one function, main(), which starts the HTTP server.';
    fake().enqueue({ text, usage: { promptTokens: 1234, completionTokens: 56 } });

    const { reply, deltas } = await complete(clientFor(fake()));

    expect(reply).toEqual({ text, reasoning: '', reasoningEcho: {}, toolCalls: [], finishReason: 'stop', usage: { promptTokens: 1234, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 56, reasoningTokens: 0, costUsd: null, estimated: false } });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
  });

  it('asks for a stream with usage, sends the messages as given, and no tools when there are none', async () => {
    fake().enqueue({ text: 'ok' }, { text: 'ok' });
    const client = clientFor(fake());

    await complete(client, { messages: userMessages });
    await complete(client, { messages: userMessages, tools: [] });

    for (const body of fake().chatRequests()) {
      expect(body).toMatchObject({ model: 'fake-model', messages: userMessages, stream: true, stream_options: { include_usage: true } });
      expect(body).not.toHaveProperty('tools');
    }
  });

  it('sends the tools and returns the tool calls with their ids and JSON arguments', async () => {
    fake().enqueue({ text: 'Let me look.', toolCalls: twoCalls });

    const { reply } = await complete(clientFor(fake()), { messages: userMessages, tools: [readFileTool] });

    expect(fake().chatRequests()[0]?.tools).toEqual([readFileTool]);
    expect(reply).toMatchObject({ text: 'Let me look.', finishReason: 'tool_calls' });
    expect(reply.toolCalls).toEqual([
      { id: 'call_fake_0_0', name: 'read_file', arguments: '{"path":"src/app.ts"}' },
      { id: 'call_fake_0_1', name: 'list_files', arguments: '{"path":"src","depth":2}' },
    ]);
  });

  it('returns a finish reason as sent, such as length', async () => {
    fake().enqueue({ text: 'The file starts with', finishReason: 'length' });

    const { reply } = await complete(clientFor(fake()));

    expect(reply).toMatchObject({ text: 'The file starts with', finishReason: 'length' });
  });

  it('returns a call with broken arguments as they came, for the engine to refuse', async () => {
    fake().enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/app.ts' } }], fault: 'malformed-arguments' });

    const { reply } = await complete(clientFor(fake()), { messages: userMessages, tools: [readFileTool] });

    // The fake cuts `{"path":"src/app.ts"}` in half.
    expect(reply.toolCalls).toEqual([{ id: 'call_fake_0_0', name: 'read_file', arguments: '{"path":"sr' }]);
  });

  it('estimates usage with the tokenizer when the server sends none', async () => {
    const client = clientFor(fake(), { fetch: fetchWithoutUsage });
    fake().enqueue({ text: 'Reading it now.', toolCalls: twoCalls });
    const request = { messages: userMessages, tools: [readFileTool] };

    const { reply } = await complete(client, request);

    expect(fake().chatRequests()[0]).not.toHaveProperty('stream_options');
    expect(reply.usage).toEqual({
      promptTokens: await estimatePromptTokens(request.messages, request.tools),
      cachedTokens: 0,
      cacheWriteTokens: 0,
      completionTokens: await estimateCompletionTokens(reply.text, reply.toolCalls),
      reasoningTokens: 0,
      costUsd: null,
      estimated: true,
    });
    expect(reply.usage.promptTokens).toBeGreaterThan(await estimatePromptTokens(request.messages));
  });
});

describe('LLM client: tool-call quirks of local servers', () => {
  const fake = useFakeLlm();

  const cases: Quirk[][] = [
    ['fragments-without-index'],
    ['fragments-without-id'],
    ['empty-name-on-continuation'],
    ['tool-calls-finish-with-stop'],
    ['arguments-as-object'],
    ['fragments-without-index', 'fragments-without-id'],
    ['fragments-without-index', 'empty-name-on-continuation'],
    ['fragments-without-id', 'empty-name-on-continuation', 'tool-calls-finish-with-stop'],
    ['arguments-as-object', 'fragments-without-index', 'fragments-without-id'],
    ['fragments-without-index', 'fragments-without-id', 'empty-name-on-continuation', 'tool-calls-finish-with-stop', 'arguments-as-object'],
  ];

  it.each(cases)('assembles both calls with %s', async (...quirks) => {
    fake().enqueue({ text: 'Looking.', toolCalls: twoCalls, quirks });

    const { reply } = await complete(clientFor(fake()), { messages: userMessages, tools: [readFileTool] });

    expect(reply.text).toBe('Looking.');
    expect(reply.toolCalls.map((call) => [call.name, parsedArguments(call.arguments)])).toEqual([
      ['read_file', { path: 'src/app.ts' }],
      ['list_files', { path: 'src', depth: 2 }],
    ]);
    const expectedIds = quirks.includes('fragments-without-id') ? ['call_1', 'call_2'] : ['call_fake_0_0', 'call_fake_0_1'];
    expect(reply.toolCalls.map((call) => call.id)).toEqual(expectedIds);
    expect(reply.finishReason).toBe(quirks.includes('tool-calls-finish-with-stop') ? 'stop' : 'tool_calls');
    if (quirks.includes('arguments-as-object')) expect(reply.toolCalls[0]?.arguments).toEqual({ path: 'src/app.ts' });
  });
});

describe('LLM client: API key', () => {
  const start = useFakeLlmStarter();

  it('sends the key as a bearer token, and a placeholder when there is none', async () => {
    const keyed = await start({ apiKey: 'sk-test-key', script: [{ text: 'ok' }] });
    const open = await start({ script: [{ text: 'ok' }] });

    await complete(clientFor(keyed, { apiKey: 'sk-test-key' }));
    await complete(clientFor(open, { apiKey: null }));

    expect(keyed.requests[0]?.headers.authorization).toBe('Bearer sk-test-key');
    expect(open.requests[0]?.headers.authorization).toBe('Bearer no-key');
  });
});
