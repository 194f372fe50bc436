import { describe, expect, it } from 'vitest';
import { catalogContextWindow, catalogCostUsd, catalogPrices } from '../../../../engine/llm/prices/modelCatalog.js';
import type { TokenUsage } from '../../../../engine/llm/usage/tokenUsage.js';

const openAi = 'https://api.openai.com/v1';
const openRouter = 'https://openrouter.ai/api/v1';
const anthropic = 'https://api.anthropic.com/v1/';
const aProxy = 'https://llm.example.com/v1';
const ollama = 'http://localhost:11434/v1';

const usage = (parts: Partial<TokenUsage>): TokenUsage => ({ promptTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, reasoningTokens: 0, ...parts });

describe('catalogPrices', () => {
  it.each([
    ['gpt-4.1-mini', openAi, { input: 0.4, cachedInput: 0.1, output: 1.6, cacheWrite: null }],
    ['gpt-4o-2024-08-06', openAi, { input: 2.5, cachedInput: 1.25, output: 10, cacheWrite: null }],
    ['openai/gpt-4.1-mini', openRouter, { input: 0.4, cachedInput: 0.1, output: 1.6, cacheWrite: null }],
    ['anthropic/claude-sonnet-4', openRouter, { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 }],
    ['claude-sonnet-4-20250514', anthropic, { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 }],
    ['codestral-2501', 'https://api.mistral.ai/v1', { input: 0.3, cachedInput: null, output: 0.9, cacheWrite: null }],
  ])('%s at %s: per million tokens', async (model, baseUrl, prices) => {
    expect(await catalogPrices({ model, baseUrl })).toEqual(prices);
  });

  it('reads a model id the way users type it at a server the catalog does not know: org/ prefix, dated suffix', async () => {
    expect(await catalogPrices({ model: 'openai/gpt-4.1-mini', baseUrl: aProxy })).toMatchObject({ input: 0.4, output: 1.6 });
    expect(await catalogPrices({ model: 'anthropic/claude-sonnet-4', baseUrl: aProxy })).toMatchObject({ input: 3, cacheWrite: 3.75 });
    expect(await catalogPrices({ model: 'gpt-4.1-2025-04-14', baseUrl: aProxy })).toMatchObject({ input: 2, output: 8 });
  });

  it('gives the first tier of a model whose price rises with the prompt', async () => {
    expect(await catalogPrices({ model: 'claude-sonnet-4-5', baseUrl: anthropic })).toEqual({ input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 });
  });

  it('knows no price for an unknown model, a model the named provider does not serve, or one served from this machine', async () => {
    expect(await catalogPrices({ model: 'fake-model', baseUrl: aProxy })).toBeNull();
    expect(await catalogPrices({ model: 'gpt-4.1-mini', baseUrl: 'https://api.deepseek.com' })).toBeNull();
    expect(await catalogPrices({ model: 'deepseek-r1:14b', baseUrl: ollama })).toBeNull();
    expect(await catalogPrices({ model: 'gpt-4.1-mini', baseUrl: 'http://127.0.0.1:4000' })).toBeNull();
    expect(await catalogPrices({ model: '', baseUrl: openAi })).toBeNull();
  });
});

describe('catalogCostUsd', () => {
  it('bills cached input at the cached rate', async () => {
    // 2,000 fresh at $0.40, 8,000 cached at $0.10, 500 out at $1.60, per million.
    expect(await catalogCostUsd(usage({ promptTokens: 10_000, cachedTokens: 8_000, completionTokens: 500 }), { model: 'gpt-4.1-mini', baseUrl: openAi })).toBeCloseTo(0.0024, 12);
  });

  it('bills cache writes at the cache-write rate where the model has one', async () => {
    // 6,000 fresh at $3, 4,000 written at $3.75, 500 out at $15, per million.
    const cost = await catalogCostUsd(usage({ promptTokens: 10_000, cacheWriteTokens: 4_000, completionTokens: 500 }), { model: 'claude-sonnet-4-20250514', baseUrl: anthropic });
    expect(cost).toBeCloseTo(0.0405, 12);
  });

  it('bills a long prompt at the higher tier', async () => {
    expect(await catalogCostUsd(usage({ promptTokens: 250_000, completionTokens: 1_000 }), { model: 'claude-sonnet-4-5', baseUrl: anthropic })).toBeCloseTo(1.5225, 12);
  });

  it('is null for a model it has no price for', async () => {
    expect(await catalogCostUsd(usage({ promptTokens: 1000, completionTokens: 10 }), { model: 'fake-model', baseUrl: aProxy })).toBeNull();
  });
});

describe('catalogContextWindow', () => {
  it.each([
    ['gpt-4.1-mini', openAi, 1_000_000, 'openai gpt-4.1-mini'],
    ['gpt-4o-2024-08-06', openAi, 128_000, 'openai gpt-4o'],
    ['gpt-5-mini', openAi, 400_000, 'openai gpt-5-mini'],
    ['o3', openAi, 200_000, 'openai o3'],
    ['o4-mini', openAi, 200_000, 'openai o4-mini'],
    ['claude-sonnet-4-5', anthropic, 200_000, 'anthropic claude-sonnet-4-5'],
    ['codestral-2501', aProxy, 256_000, 'mistral codestral'],
    ['kimi-k2-0905-preview', aProxy, 262_144, 'moonshotai kimi-k2-0905-preview'],
  ])('%s at %s: %i tokens', async (model, baseUrl, tokens, entry) => {
    expect(await catalogContextWindow({ model, baseUrl })).toEqual({ tokens, entry });
  });

  it("takes the maker's entry when the server's own has no window, and OpenRouter's after it", async () => {
    expect(await catalogContextWindow({ model: 'anthropic/claude-sonnet-4', baseUrl: openRouter })).toEqual({ tokens: 200_000, entry: 'anthropic claude-sonnet-4-0' });
    expect(await catalogContextWindow({ model: 'gemini-2.5-pro', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/' })).toEqual({
      tokens: 1_048_576,
      entry: 'openrouter google/gemini-2.5-pro',
    });
  });

  it('is a fact of the model wherever it runs, a local server included', async () => {
    expect(await catalogContextWindow({ model: 'gpt-4o', baseUrl: 'http://127.0.0.1:4000/v1' })).toEqual({ tokens: 128_000, entry: 'openai gpt-4o' });
  });

  it('is null for a model the catalog has no window for', async () => {
    expect(await catalogContextWindow({ model: 'llama3.1:8b', baseUrl: ollama })).toBeNull();
    expect(await catalogContextWindow({ model: 'fake-model', baseUrl: aProxy })).toBeNull();
  });
});
