import { describe, expect, it } from 'vitest';
import type { LlmUsage } from '../../../../engine/llm/llmTypes.js';
import type { Quirk, ScriptedUsage, UsageShape } from '../../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { clientFor, complete } from '../llmClientHarness.js';

const answer = 'The server starts in src/app.ts.';

/** One request's counts in the engine's meaning: of 12,000 prompt tokens 9,000 read from the cache and 1,500 written to it; of 700 out, 200 reasoning. */
const counts = { promptTokens: 12_000, cachedTokens: 9_000, cacheWriteTokens: 1_500, completionTokens: 700, reasoningTokens: 200 };

/** What a server of each shape can tell of `counts`: the parts it has no field for read as 0. */
function told(parts: { cached?: boolean; written?: boolean; reasoning?: boolean }, costUsd: number | null = null): LlmUsage {
  return {
    promptTokens: counts.promptTokens,
    cachedTokens: parts.cached ? counts.cachedTokens : 0,
    cacheWriteTokens: parts.written ? counts.cacheWriteTokens : 0,
    completionTokens: counts.completionTokens,
    reasoningTokens: parts.reasoning ? counts.reasoningTokens : 0,
    costUsd,
    estimated: false,
  };
}

describe('usage as servers report it, in one meaning', () => {
  const fake = useFakeLlm();

  it.each<[string, UsageShape, Quirk[], LlmUsage]>([
    ['OpenAI, vLLM: prompt_tokens_details.cached_tokens and completion_tokens_details.reasoning_tokens', 'openai', [], told({ cached: true, reasoning: true })],
    ['DeepSeek: prompt_cache_hit_tokens + prompt_cache_miss_tokens, on the finish chunk', 'deepseek', ['usage-on-finish-chunk'], told({ cached: true, reasoning: true })],
    ["Anthropic's names: input_tokens without the cache, cache_read_input_tokens, cache_creation_input_tokens", 'anthropic', [], told({ cached: true, written: true })],
    ["a proxy passing Anthropic's counts on: prompt_tokens without the cache beside Anthropic's cache fields", 'anthropic-proxy', [], told({ cached: true, written: true })],
    ["LiteLLM: prompt_tokens with the cache, OpenAI's cached_tokens and Anthropic's fields", 'litellm', [], told({ cached: true, written: true, reasoning: true })],
    ['OpenRouter: cached_tokens and cache_write_tokens, and its cost', 'openrouter', [], told({ cached: true, written: true, reasoning: true }, 0.0123)],
    ['Moonshot/Kimi: cached_tokens at the top of usage, inside the choice', 'moonshot', ['usage-in-choice'], told({ cached: true, reasoning: true })],
    ['Groq: inside x_groq', 'openai', ['usage-in-x-groq'], told({ cached: true, reasoning: true })],
  ])('%s', async (_name, usageShape, quirks, expected) => {
    const usage: ScriptedUsage = { ...counts, costUsd: 0.0123 };
    fake().enqueue({ text: answer, usage, usageShape, quirks });

    const { reply } = await complete(clientFor(fake()));

    expect(reply.usage).toEqual(expected);
  });

  it("xAI: reasoning_tokens counted apart from completion_tokens is added to the output, and cost_in_usd_ticks is the cost", async () => {
    fake().enqueue({ text: answer, usage: { ...counts, costUsd: 0.0232856 }, usageShape: 'xai' });

    const { reply } = await complete(clientFor(fake()));

    expect(reply.usage).toEqual({ ...told({ cached: true, reasoning: true }), costUsd: expect.closeTo(0.0232856, 10) });
  });

  it("llama.cpp's timings: prompt_n processed and cache_n from the cache make the prompt", async () => {
    fake().enqueue({ text: answer, usage: counts, quirks: ['usage-as-timings'] });

    const { reply } = await complete(clientFor(fake()));

    expect(reply.usage).toEqual(told({ cached: true }));
  });

  it('a usage that names no cache and no reasoning has none of either', async () => {
    fake().enqueue({ text: answer, usage: { promptTokens: 1234, completionTokens: 56 } });

    const { reply } = await complete(clientFor(fake()));

    expect(reply.usage).toEqual({ promptTokens: 1234, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 56, reasoningTokens: 0, costUsd: null, estimated: false });
  });

  it('reads the usage of a whole completion sent instead of a stream (a proxy that ignores stream: true)', async () => {
    fake().enqueue({ text: answer, usage: counts, usageShape: 'deepseek' });
    const ignoringStream: typeof fetch = (input, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      return fetch(input, { ...init, body: JSON.stringify({ ...body, stream: false }) });
    };

    const { reply } = await complete(clientFor(fake(), { fetch: ignoringStream }));

    expect(reply.usage).toEqual(told({ cached: true, reasoning: true }));
  });
});

describe('what a request cost', () => {
  const fake = useFakeLlm();

  it('is what the server says it charged', async () => {
    fake().enqueue({ text: answer, usage: { ...counts, costUsd: 0.0123 }, usageShape: 'openrouter' });

    expect((await complete(clientFor(fake()))).reply.usage.costUsd).toBe(0.0123);
  });

  it("is the user's own price when one is set, over the server's figure, each part of the prompt at its rate", async () => {
    fake().enqueue({ text: answer, usage: { ...counts, costUsd: 0.0123 }, usageShape: 'openrouter' });
    const client = clientFor(fake(), { price: { input: 2, cachedInput: 0.5, output: 8 } });

    const { reply } = await complete(client);

    // 1,500 fresh and 1,500 written at $2, 9,000 cached at $0.50, 700 out at $8, per million.
    expect(reply.usage.costUsd).toBeCloseTo((3_000 * 2 + 9_000 * 0.5 + 700 * 8) / 1e6, 12);
  });

  it('is unknown for a model no catalog prices, and for any model served from this machine', async () => {
    fake().enqueue({ text: answer, usage: counts }, { text: answer, usage: counts });

    expect((await complete(clientFor(fake()))).reply.usage.costUsd).toBeNull();
    expect((await complete(clientFor(fake(), { model: 'gpt-4.1-mini' }))).reply.usage.costUsd).toBeNull();
  });
});
