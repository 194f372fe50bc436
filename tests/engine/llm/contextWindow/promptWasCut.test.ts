import { describe, expect, it } from 'vitest';
import { promptWasCut } from '../../../../engine/llm/contextWindow/promptWasCut.js';

describe('promptWasCut', () => {
  it('says so when a prompt larger than the window came back counted at less than half', () => {
    expect(promptWasCut({ sentEstimate: 12_000, reportedPromptTokens: 4096, contextWindow: 4096 })).toBe(true);
  });

  it('not for a prompt that fitted the window, however the counts differ', () => {
    expect(promptWasCut({ sentEstimate: 4000, reportedPromptTokens: 1500, contextWindow: 8192 })).toBe(false);
  });

  it('not for a count merely below the estimate', () => {
    expect(promptWasCut({ sentEstimate: 10_000, reportedPromptTokens: 6000, contextWindow: 8192 })).toBe(false);
  });

  it('not when the server reported no count', () => {
    expect(promptWasCut({ sentEstimate: 20_000, reportedPromptTokens: 0, contextWindow: 8192 })).toBe(false);
  });
});
