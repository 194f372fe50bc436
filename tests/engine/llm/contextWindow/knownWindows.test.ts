import { describe, expect, it } from 'vitest';
import { knownWindow } from '../../../../engine/llm/contextWindow/knownWindows.js';

describe('knownWindow', () => {
  it.each([
    ['gpt-4.1-mini', 1_047_576, 'gpt-4.1'],
    ['gpt-4o-2024-08-06', 128_000, 'gpt-4o'],
    ['gpt-5-mini', 400_000, 'gpt-5'],
    ['o3', 200_000, 'o3'],
    ['o4-mini', 200_000, 'o4-mini'],
    ['claude-sonnet-4-5', 200_000, 'claude-'],
    ['gemini-2.5-pro', 1_048_576, 'gemini-2.5'],
    ['deepseek-reasoner', 128_000, 'deepseek-reasoner'],
    ['mistral-large-latest', 131_072, 'mistral-large'],
    ['codestral-2501', 256_000, 'codestral'],
  ])('%s: %i tokens', (model, tokens, prefix) => {
    expect(knownWindow(model)).toEqual({ tokens, prefix });
  });

  it('ignores an org/ prefix, a :tag suffix and case', () => {
    expect(knownWindow('openai/gpt-4o-mini')).toEqual({ tokens: 128_000, prefix: 'gpt-4o' });
    expect(knownWindow('qwen2.5-coder:14b')).toEqual({ tokens: 32_768, prefix: 'qwen2.5-coder' });
    expect(knownWindow('Qwen/Qwen2.5-Coder-32B-Instruct')).toEqual({ tokens: 32_768, prefix: 'qwen2.5-coder' });
    expect(knownWindow('meta-llama/Llama-3.3-70B-Instruct')).toEqual({ tokens: 131_072, prefix: 'llama-3.3' });
    expect(knownWindow('llama3.1:70b')).toEqual({ tokens: 131_072, prefix: 'llama3.1' });
  });

  it('knows nothing of other models', () => {
    expect(knownWindow('fake-model')).toBeNull();
    expect(knownWindow('llama3:8b')).toBeNull();
    expect(knownWindow('')).toBeNull();
  });
});
