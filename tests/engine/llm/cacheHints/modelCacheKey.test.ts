import { describe, expect, it } from 'vitest';
import { modelCacheKey } from '../../../../engine/llm/cacheHints/modelCacheKey.js';

const folderKey = '6f1d3c1e-0b7a-4f5e-9a55-1c2d3e4f5a6b';
const main = { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1' };

describe('the prompt cache key of a phase\'s model', () => {
  it('is the folder\'s own key for the default model, a trailing slash aside', () => {
    expect(modelCacheKey(folderKey, main, main)).toBe(folderKey);
    expect(modelCacheKey(folderKey, { ...main, baseUrl: 'https://api.openai.com/v1/' }, main)).toBe(folderKey);
  });

  it('differs per model and per server, stays the same run after run, and does not reveal the folder\'s key', () => {
    const mini = modelCacheKey(folderKey, { ...main, model: 'gpt-4.1-mini' }, main);
    const elsewhere = modelCacheKey(folderKey, { baseUrl: 'https://openrouter.ai/api/v1', model: 'gpt-4.1' }, main);
    expect(new Set([folderKey, mini, elsewhere]).size).toBe(3);
    expect(modelCacheKey(folderKey, { ...main, model: 'gpt-4.1-mini' }, main)).toBe(mini);
    expect(mini).toMatch(/^[0-9a-f]{32}$/);
    expect(mini).not.toContain(folderKey.replace(/-/g, '').slice(0, 8));
  });
});
