import { describe, expect, it, vi } from 'vitest';
import { createLlmClient } from '../../../engine/llm/openaiClient.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { clientFor, complete, failureOf, userMessages } from './llmClientHarness.js';
import { closedPortUrl } from '../../support/closedPort.js';

const answer = 'The server starts in src/app.ts, which reads the port from the environment and listens on it.';

/** Open TCP sockets of this process: the client's and, since the fake runs in it too, the fake's. */
function openSockets(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'TCPSocketWrap').length;
}

describe('LLM client: HTTP errors', () => {
  const fake = useFakeLlm();

  it('401: names the server and where to fix the key, and never shows the key', async () => {
    fake().enqueue({ fault: 'http-401' });

    const error = await failureOf(complete(clientFor(fake(), { apiKey: 'sk-very-secret-key' })));

    expect(error).toMatchObject({
      kind: 'auth',
      status: 401,
      message: `The model server at ${fake().baseUrl} rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.`,
    });
    expect(error.message).not.toContain('very-secret');
  });

  it('404 for the model: names the model and where to fix it', async () => {
    fake().enqueue({ fault: 'http-404-model' });

    const error = await failureOf(complete(clientFor(fake())));

    expect(error).toMatchObject({
      kind: 'model-not-found',
      status: 404,
      message: `The model server at ${fake().baseUrl} has no model named "fake-model" (HTTP 404). Check the model name in Settings.`,
    });
  });

  it('429: the SDK waits as retry-after says and retries, then the reply comes', async () => {
    fake().enqueue({ fault: { type: 'http-429', retryAfterSeconds: 0 } }, { text: answer });

    const { reply } = await complete(clientFor(fake(), { maxRetries: 2 }));

    expect(reply.text).toBe(answer);
    expect(fake().chatRequests()).toHaveLength(2);
  });

  it('429 on every retry: rate-limited', async () => {
    const limited = { fault: { type: 'http-429', retryAfterSeconds: 0 } } as const;
    fake().enqueue(limited, limited);

    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 1 })));

    expect(error).toMatchObject({ kind: 'rate-limited', status: 429 });
    expect(error.message).toContain(fake().baseUrl);
    expect(fake().chatRequests()).toHaveLength(2);
  });

  it('500 then a reply: the SDK retries', async () => {
    fake().enqueue({ fault: 'http-500' }, { text: answer });

    const { reply } = await complete(clientFor(fake(), { maxRetries: 1 }));

    expect(reply.text).toBe(answer);
    expect(fake().chatRequests()).toHaveLength(2);
  });

  it('500 on every retry: server error naming the server', async () => {
    fake().enqueue({ fault: 'http-500' }, { fault: 'http-500' });

    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 1 })));

    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(error.message).toMatch(new RegExp(`^The model server at ${fake().baseUrl} failed after 1 retry \\(HTTP 500: `));
    expect(fake().chatRequests()).toHaveLength(2);
  });
});

describe('LLM client: broken streams', () => {
  const fake = useFakeLlm();

  it('a dropped stream is retried as a whole turn, and text is delivered once', async () => {
    fake().enqueue({ text: answer, fault: { type: 'drop-mid-stream', afterChunks: 3 } }, { text: answer });

    const { reply, deltas } = await complete(clientFor(fake(), { maxRetries: 2 }));

    expect(reply.text).toBe(answer);
    expect(deltas.join('')).toBe(answer);
    expect(fake().chatRequests()).toHaveLength(2);
  });

  it('a retry that answers differently delivers no more text, and its reply is the one returned', async () => {
    const retried = 'A different answer: the entry point is src/main.ts.';
    fake().enqueue({ text: answer, fault: { type: 'drop-mid-stream', afterChunks: 3 } }, { text: retried });

    const { reply, deltas } = await complete(clientFor(fake(), { maxRetries: 2 }));

    expect(reply.text).toBe(retried);
    expect(deltas.length).toBeGreaterThan(0);
    expect(answer.startsWith(deltas.join(''))).toBe(true);
  });

  it('a stream that drops on every attempt fails as dropped', async () => {
    const dropped = { text: answer, fault: 'drop-mid-stream' } as const;
    fake().enqueue(dropped, dropped);

    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 1 })));

    expect(error.kind).toBe('dropped');
    expect(error.message).toContain(`${fake().baseUrl} dropped in the middle of a reply, 2 times in a row`);
  });

  it('a stream that stalls after its headers is given up after the idle timeout and retried', async () => {
    fake().enqueue({ text: answer, fault: 'stall-after-headers' }, { text: answer });

    const { reply, deltas } = await complete(clientFor(fake(), { idleTimeoutMs: 100, firstByteTimeoutMs: 100, maxRetries: 2 }));

    expect(reply.text).toBe(answer);
    expect(deltas.join('')).toBe(answer);
    expect(fake().chatRequests()).toHaveLength(2);
  });

  it('a stream that stalls on every attempt fails as stalled', async () => {
    const stalled = { text: answer, fault: { type: 'stall-after-headers', afterChunks: 2 } } as const;
    fake().enqueue(stalled, stalled);

    const error = await failureOf(complete(clientFor(fake(), { idleTimeoutMs: 50, maxRetries: 1 })));

    expect(error.kind).toBe('stalled');
    expect(error.message).toContain('sent nothing for 0.05 seconds in the middle of a reply, 2 times in a row');
  });

  it('a slow stream that keeps sending is not a stall', async () => {
    fake().enqueue({ text: answer, delayMs: 30 });

    const { reply } = await complete(clientFor(fake(), { idleTimeoutMs: 100 }));

    expect(reply.text).toBe(answer);
  });

  it('a stream without finish_reason is truncated, never a reply', async () => {
    fake().enqueue({ text: answer, fault: 'no-finish-reason' });

    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 0 })));

    expect(error.kind).toBe('truncated');
    expect(error.message).toContain(fake().baseUrl);
  });

  it('a stream without finish_reason is retried, and the retry can succeed', async () => {
    fake().enqueue({ text: answer, fault: 'no-finish-reason' }, { text: answer });

    const { reply, deltas } = await complete(clientFor(fake(), { maxRetries: 2 }));

    expect(reply).toMatchObject({ text: answer, finishReason: 'stop' });
    expect(deltas.join('')).toBe(answer);
  });
});

describe('LLM client: unreachable server', () => {
  it('says it cannot reach the URL, with the connection error code', async () => {
    const baseUrl = await closedPortUrl();
    const client = createLlmClient({ baseUrl, apiKey: null, model: 'fake-model', maxRetries: 0 });

    const error = await failureOf(complete(client));

    expect(error).toMatchObject({
      kind: 'unreachable',
      message: `Cannot reach the model server at ${baseUrl} (ECONNREFUSED). Check the base URL and that the server is running.`,
    });
  });
});

describe('LLM client: cancellation', () => {
  const start = useFakeLlmStarter();

  it('aborting mid-stream rejects at once as cancelled and closes the connection', async () => {
    const llm = await start({ script: [{ text: answer.repeat(8), delayMs: 50 }] });
    const socketsBefore = openSockets();
    const controller = new AbortController();
    const deltas: string[] = [];
    const startedAt = performance.now();

    const call = clientFor(llm).complete(
      { messages: userMessages },
      {
        signal: controller.signal,
        onTextDelta: (text) => {
          deltas.push(text);
          controller.abort();
        },
      },
    );
    const error = await failureOf(call);

    expect(error).toMatchObject({ kind: 'cancelled', message: `The call to the model server at ${llm.baseUrl} was cancelled.` });
    // The whole stream takes 42 chunks × 50 ms; cancelling takes about one chunk.
    expect(performance.now() - startedAt).toBeLessThan(1000);
    expect(deltas).toHaveLength(1);
    await vi.waitFor(() => expect(openSockets()).toBe(socketsBefore));
  });

  it('aborting while the SDK waits to retry a 429 rejects at once and sends nothing more', async () => {
    const llm = await start({ script: [{ fault: { type: 'http-429', retryAfterSeconds: 5 } }] });
    const controller = new AbortController();

    const call = clientFor(llm, { maxRetries: 2 }).complete({ messages: userMessages }, { signal: controller.signal });
    await vi.waitFor(() => expect(llm.chatRequests()).toHaveLength(1));
    const abortedAt = performance.now();
    controller.abort();
    const error = await failureOf(call);

    expect(error.kind).toBe('cancelled');
    // The SDK would sleep 5 s before retrying.
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(llm.chatRequests()).toHaveLength(1);
  });

  it('a signal aborted before the call sends no request', async () => {
    const llm = await start();
    const controller = new AbortController();
    controller.abort();

    const error = await failureOf(clientFor(llm).complete({ messages: userMessages }, { signal: controller.signal }));

    expect(error.kind).toBe('cancelled');
    expect(llm.requests).toHaveLength(0);
  });
});
