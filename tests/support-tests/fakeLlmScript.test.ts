import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/fakeLlm/index.js';
import { useFakeLlmStarter } from '../support/fakeLlm/useFakeLlm.js';
import { clientFor, userMessage } from './fakeLlmHelpers.js';

const tools = [{ type: 'function' as const, function: { name: 'ls', parameters: { type: 'object', properties: {} } } }];

describe('fake LLM script and recording', () => {
  const start = useFakeLlmStarter();

  it('records every request with method, path, headers and parsed body', async () => {
    const server = await start({ script: [{ text: 'one' }] });
    const client = clientFor(server);
    await client.models.list();
    await client.chat.completions.create({ model: 'fake-model', messages: userMessage, tools });

    expect(server.requests.map((request) => [request.method, request.path])).toEqual([
      ['GET', '/v1/models'],
      ['POST', '/v1/chat/completions'],
    ]);
    expect(server.requests[1]?.headers.authorization).toBe('Bearer test');
    expect(server.requests[1]?.receivedAt).toBeGreaterThanOrEqual(server.requests[0]?.receivedAt ?? Infinity);
    expect(server.chatRequests()).toEqual([{ model: 'fake-model', messages: userMessage, tools }]);
  });

  it('serves turns in order, including those enqueued later', async () => {
    const server = await start({ script: [{ text: 'first' }] });
    server.enqueue({ text: 'second' }, { text: 'third' });
    const client = clientFor(server);
    const answers: (string | null | undefined)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const completion = await client.chat.completions.create({ model: 'fake-model', messages: userMessage });
      answers.push(completion.choices[0]?.message.content);
    }

    expect(answers).toEqual(['first', 'second', 'third']);
    expect(server.scriptErrors).toEqual([]);
  });

  it('hands each chat request and its index to a script function', async () => {
    const seen: [RecordedRequest, number][] = [];
    const server = await start({
      script: (request, index) => {
        seen.push([request, index]);
        return { text: `answer ${index} to ${JSON.stringify(request.body).length} bytes` };
      },
    });
    const client = clientFor(server);
    const first = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'a' }] });
    await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'bb' }] });

    expect(seen.map(([request, index]) => [request.path, request.body, index])).toEqual([
      ['/v1/chat/completions', { model: 'fake-model', messages: [{ role: 'user', content: 'a' }] }, 0],
      ['/v1/chat/completions', { model: 'fake-model', messages: [{ role: 'user', content: 'bb' }] }, 1],
    ]);
    expect(first.choices[0]?.message.content).toMatch(/^answer 0 to \d+ bytes$/);
  });

  it('fails loudly with a 500 when the script runs out, and records why', async () => {
    const server = await start({ script: [{ text: 'only one' }] });
    const client = clientFor(server);
    await client.chat.completions.create({ model: 'fake-model', messages: userMessage });
    const error = await client.chat.completions
      .create({ model: 'fake-model', messages: userMessage, stream: true })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toContain('script exhausted');
    expect(server.scriptErrors).toEqual([expect.stringContaining('chat request #2 arrived but no scripted turn is left')]);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('turns a broken script into a loud 500 rather than a hang', async () => {
    const server = await start({
      script: [{ toolCalls: [{ name: 'ls', arguments: 'not json' }], quirks: 'arguments-as-object' }],
    });
    const error = await clientFor(server)
      .chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(server.scriptErrors).toEqual([expect.stringContaining("quirk 'arguments-as-object' needs JSON-object arguments")]);
  });
});
