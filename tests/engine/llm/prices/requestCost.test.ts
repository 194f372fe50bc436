import { describe, expect, it } from 'vitest';
import { requestCost } from '../../../../engine/llm/prices/requestCost.js';
import type { ReportedUsage } from '../../../../engine/llm/usage/tokenUsage.js';

const usage: ReportedUsage = { promptTokens: 10_000, cachedTokens: 8_000, cacheWriteTokens: 0, completionTokens: 500, reasoningTokens: 0, costUsd: null };
const openAi = { model: 'gpt-4.1-mini', baseUrl: 'https://api.openai.com/v1' };

describe('requestCost', () => {
  it("is the catalog's price when the server says nothing", async () => {
    expect(await requestCost({ usage, ...openAi })).toBeCloseTo(0.0024, 12);
  });

  it("is the server's reported cost over the catalog's", async () => {
    expect(await requestCost({ usage: { ...usage, costUsd: 0.005 }, ...openAi })).toBe(0.005);
  });

  it("is the user's price over both, cached input at the user's cached rate", async () => {
    const userPrice = { input: 1, cachedInput: 0.25, output: 4 };
    // 2,000 fresh at $1, 8,000 cached at $0.25, 500 out at $4, per million.
    expect(await requestCost({ usage: { ...usage, costUsd: 0.005 }, userPrice, ...openAi })).toBeCloseTo(0.006, 12);
  });

  it("bills cached input as input when the user's price has no cached rate", async () => {
    expect(await requestCost({ usage, userPrice: { input: 1, cachedInput: null, output: 4 }, ...openAi })).toBeCloseTo(0.012, 12);
  });

  it('is null for a model without a price: tokens only, never an invented price', async () => {
    expect(await requestCost({ usage, model: 'my-finetune', baseUrl: 'https://llm.example.com/v1' })).toBeNull();
    expect(await requestCost({ usage, model: 'deepseek-r1:14b', baseUrl: 'http://localhost:11434/v1' })).toBeNull();
  });
});
