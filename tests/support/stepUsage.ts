import type { StepUsage } from '../../engine/contract/index.js';

/** One step's usage: one call and no tokens unless `figures` say otherwise, unpriced. */
export const stepUsage = (phase: StepUsage['phase'], figures: Partial<StepUsage> = {}): StepUsage => ({
  phase,
  promptTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
  calls: 1,
  costUsd: null,
  unpricedCalls: 0,
  estimated: false,
  ...figures,
});
