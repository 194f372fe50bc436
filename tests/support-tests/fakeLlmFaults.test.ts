import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { clientFor, collect, reassemble, userMessage } from './fakeLlmHelpers.js';

function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the request to fail'),
    (error: unknown) => error,
  );
}

describe('fake LLM faults', () => {
  const fake = useFakeLlm();
  let client: OpenAI;
  beforeEach(() => {
    client = clientFor(fake());
  });

  const streamOnce = async () =>
    client.chat.completions.create({ model: 'fake-model', messages: userMessage, stream: true });

  it('http-401 → AuthenticationError with invalid_api_key', async () => {
    fake().enqueue({ fault: 'http-401' });
    const error = await rejectionOf(streamOnce());
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
  });

  it('http-404-model → NotFoundError with model_not_found naming the model', async () => {
    fake().enqueue({ fault: 'http-404-model' });
    const error = await rejectionOf(streamOnce());
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
    expect((error as Error).message).toContain('fake-model');
  });

  it('http-429 → RateLimitError whose headers carry retry-after in seconds', async () => {
    fake().enqueue({ fault: { type: 'http-429', retryAfterSeconds: 7 } }, { fault: 'http-429' });
    const first = await rejectionOf(streamOnce());
    expect(first).toBeInstanceOf(OpenAI.RateLimitError);
    expect((first as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    const second = await rejectionOf(streamOnce());
    expect((second as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('1');
  });

  it('http-500 → InternalServerError', async () => {
    fake().enqueue({ fault: 'http-500' });
    const error = await rejectionOf(client.chat.completions.create({ model: 'fake-model', messages: userMessage }));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 500, type: 'server_error' });
  });

  it('drop-mid-stream → iterating rejects after the chunks already sent', async () => {
    fake().enqueue({ text: 'this answer never finishes arriving', fault: { type: 'drop-mid-stream', afterChunks: 2 } });
    const received: unknown[] = [];
    const stream = await streamOnce();
    const error = await rejectionOf(
      (async () => {
        for await (const chunk of stream) received.push(chunk);
      })(),
    );
    expect(error).toBeInstanceOf(Error);
    expect(received).toHaveLength(2);
  });

  it('drop-mid-stream without streaming → the request fails with a connection error', async () => {
    fake().enqueue({ text: 'lost', fault: 'drop-mid-stream' });
    const error = await rejectionOf(client.chat.completions.create({ model: 'fake-model', messages: userMessage }));
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('stall-after-headers → an abort after the first chunk ends the stream', async () => {
    fake().enqueue({ text: 'stuck forever', fault: 'stall-after-headers' });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'fake-model', messages: userMessage, stream: true },
      { signal: controller.signal },
    );
    const received: unknown[] = [];
    await (async () => {
      for await (const chunk of stream) {
        received.push(chunk);
        controller.abort();
      }
    })().catch((error: unknown) => expect(error).toBeInstanceOf(OpenAI.APIUserAbortError));
    expect(received).toHaveLength(1);
  });

  it('stall-after-headers → close() returns promptly and ends the open connection', async () => {
    fake().enqueue({ text: 'stuck forever', fault: { type: 'stall-after-headers', afterChunks: 2 } });
    const response = await fetch(`${fake().baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'fake-model', messages: userMessage, stream: true }),
    });
    const reader = response.body?.getReader();
    if (reader === undefined) return expect.fail('the stalled response has no body');
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^data: /);

    const startedAt = performance.now();
    await fake().close();
    expect(performance.now() - startedAt).toBeLessThan(1000);
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow();
  });

  it('no-finish-reason → the stream ends with [DONE] yet every finish_reason is null', async () => {
    fake().enqueue({ text: 'cut short', toolCalls: [{ name: 'ls', arguments: {} }], fault: 'no-finish-reason' });
    const chunks = await collect(await streamOnce());
    const reassembled = reassemble(chunks);
    expect(reassembled.text).toBe('cut short');
    expect(reassembled.finishReasons.length).toBeGreaterThan(0);
    expect(reassembled.finishReasons.every((reason) => reason === null)).toBe(true);
  });

  it('malformed-arguments → reassembled arguments are not valid JSON', async () => {
    fake().enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.ts', content: 'x' } }], fault: 'malformed-arguments' });
    const { toolCalls } = reassemble(await collect(await streamOnce()));
    expect(toolCalls[0]?.name).toBe('write_file');
    expect('{"path":"a.ts","content":"x"}'.startsWith(toolCalls[0]?.arguments ?? '?')).toBe(true);
    expect(() => JSON.parse(toolCalls[0]?.arguments ?? '')).toThrow(SyntaxError);
  });
});
