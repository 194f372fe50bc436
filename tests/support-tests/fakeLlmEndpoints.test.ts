import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useFakeLlmStarter } from '../support/fakeLlm/useFakeLlm.js';
import { clientFor, userMessage } from './fakeLlmHelpers.js';

describe('fake LLM endpoints', () => {
  const start = useFakeLlmStarter();

  it('answers without streaming with text and usage', async () => {
    const server = await start({ script: [{ text: 'All done.' }] });
    const completion = await clientFor(server).chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x'.repeat(40) }],
    });

    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'All done.' });
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
  });

  it('answers without streaming with tool calls', async () => {
    const server = await start({ script: [{ toolCalls: [{ name: 'ls', arguments: { path: '.' }, id: 'call_1' }] }] });
    const completion = await clientFor(server).chat.completions.create({ model: 'fake-model', messages: userMessage });

    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.content).toBeNull();
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } },
    ]);
  });

  it('reports scripted usage and a scripted finish reason', async () => {
    const server = await start({
      script: [{ text: 'trunc', finishReason: 'length', usage: { promptTokens: 1234, completionTokens: 4096 } }],
    });
    const completion = await clientFor(server).chat.completions.create({ model: 'fake-model', messages: userMessage });

    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage).toEqual({ prompt_tokens: 1234, completion_tokens: 4096, total_tokens: 5330 });
  });

  it('lists the configured models', async () => {
    const server = await start({ models: ['qwen3-coder', 'gpt-oss-20b'] });
    const page = await clientFor(server).models.list();

    expect(page.data.map((model) => [model.id, model.object])).toEqual([
      ['qwen3-coder', 'model'],
      ['gpt-oss-20b', 'model'],
    ]);
  });

  it('rejects a model outside the configured list with model_not_found, consuming no turn', async () => {
    const server = await start({ models: ['qwen3-coder'], script: [{ text: 'hi' }] });
    const client = clientFor(server);
    const error = await client.chat.completions.create({ model: 'gpt-4o', messages: userMessage }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'model_not_found' });
    const completion = await client.chat.completions.create({ model: 'qwen3-coder', messages: userMessage });
    expect(completion.choices[0]?.message.content).toBe('hi');
  });

  it('demands the configured API key as a Bearer token', async () => {
    const server = await start({ apiKey: 'sk-right', script: [{ text: 'welcome' }] });
    const wrong = await clientFor(server, 'sk-wrong').models.list().catch((e: unknown) => e);

    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(wrong).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    const completion = await clientFor(server, 'sk-right').chat.completions.create({ model: 'm', messages: userMessage });
    expect(completion.choices[0]?.message.content).toBe('welcome');
  });

  it('answers an unknown path with a 404 JSON error and a malformed body with a 400 JSON error', async () => {
    const server = await start();
    const unknown = await fetch(`${server.baseUrl}/embeddings`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { message: 'Invalid URL (POST /v1/embeddings)' } });

    const malformed = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', body: '{"model": ' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(server.requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/v1/embeddings', {}],
      ['POST', '/v1/chat/completions', null],
    ]);
  });
});
