import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../engine/llm/llmTypes.js';
import { breakpointsIn } from '../../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { clientAt, complete, failureOf } from '../llmClientHarness.js';

const cacheKey = 'c8f1d2a4-5b6e-4f70-8a91-b2c3d4e5f607';
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are a careful coding agent.', cacheBreakpoint: true },
  { role: 'user', content: 'What is in src/app.ts?' },
];

/**
 * Refusals are remembered for the process (here: this file) by base URL, so each test asks a server of
 * its own: Azure resources are told apart by their host.
 */
const azure = (resource: string) => `https://${resource}.openai.azure.com/openai/v1`;

describe('cache hints: a server that refuses them', () => {
  const fake = useFakeLlm({ cacheHints: 'reject-key' });

  it('is asked once more without them in the same attempt, and the reply stands', async () => {
    fake().enqueue({ text: 'src/app.ts starts the server.' });

    const { reply } = await complete(clientAt(fake(), azure('strict-once'), { cacheKey }), { messages });

    expect(reply.text).toBe('src/app.ts starts the server.');
    expect(fake().promptCacheKeys()).toEqual([cacheKey, null]);
  });

  it('gets no hints for the rest of the process, from any client for its base URL', async () => {
    fake().enqueue({ text: 'first' }, { text: 'second' }, { text: 'third' });
    const baseUrl = azure('strict-remembered');

    await complete(clientAt(fake(), baseUrl, { cacheKey }), { messages });
    await complete(clientAt(fake(), baseUrl, { cacheKey }), { messages });
    await complete(clientAt(fake(), azure('strict-other'), { cacheKey }), { messages });

    expect(fake().promptCacheKeys()).toEqual([cacheKey, null, null, cacheKey, null]);
  });

  it('counts the request without hints as no retry: a run with no retries still gets its reply', async () => {
    fake().enqueue({ text: 'ok' });

    const { reply } = await complete(clientAt(fake(), azure('strict-no-retries'), { cacheKey, maxRetries: 0 }), { messages });

    expect(reply.finishReason).toBe('stop');
  });
});

describe('cache hints: a 400 for another reason', () => {
  const fake = useFakeLlm({ cacheHints: 'anthropic-limits' });
  const refusal = { type: 'http-error', status: 400, body: { error: { message: "Invalid 'temperature': decimal above maximum value.", type: 'invalid_request_error' } } } as const;

  it('fails as the server said after the request without hints is refused too, and the server keeps its hints', async () => {
    fake().enqueue({ fault: refusal }, { fault: refusal }, { text: 'ok' });
    const baseUrl = azure('refuses-temperature');

    const error = await failureOf(complete(clientAt(fake(), baseUrl, { cacheKey }), { messages }));
    await complete(clientAt(fake(), baseUrl, { cacheKey }), { messages });

    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain("Invalid 'temperature'");
    expect(fake().promptCacheKeys()).toEqual([cacheKey, null, cacheKey]);
  });

  it('is not sent again when it says the request is too long', async () => {
    fake().enqueue({ fault: { type: 'http-error', status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", code: 'context_length_exceeded' } } } });

    const error = await failureOf(complete(clientAt(fake(), azure('too-long'), { cacheKey }), { messages }));

    expect(error.kind).toBe('context-exceeded');
    expect(fake().requests).toHaveLength(1);
  });

  it('takes Claude through OpenRouter when Anthropic refuses its breakpoints: once more without', async () => {
    fake().enqueue({ fault: { type: 'http-error', status: 400, body: { error: { message: 'Provider returned error', code: 400 } } } }, { text: 'ok' });

    const { reply } = await complete(clientAt(fake(), 'https://openrouter.ai/api/v1', { model: 'anthropic/claude-sonnet-4.5' }), { messages });

    expect(reply.text).toBe('ok');
    expect(fake().chatRequests().map(breakpointsIn)).toEqual([[0], []]);
  });
});
