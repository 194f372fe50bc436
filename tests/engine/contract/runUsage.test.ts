import { describe, expect, it } from 'vitest';
import { costTotalText, stepUsageText, usageTotalOf, usageTotalText, type StepUsage } from '../../../engine/contract/index.js';
import { stepUsage } from '../../support/stepUsage.js';

const step = (figures: Partial<StepUsage>): StepUsage => stepUsage('research', figures);

describe('a request’s usage in words', () => {
  it('reads tokens in (of which cached), out and the cost', () => {
    const research = step({ promptTokens: 20_000, cachedTokens: 15_000, completionTokens: 1_500, costUsd: 0.011 });
    const plan = step({ phase: 'plan', promptTokens: 38_200, cachedTokens: 34_100, completionTokens: 2_400, costUsd: 0.02, calls: 3 });
    expect(usageTotalText(usageTotalOf([research, plan]))).toBe('58,200 tokens in (49,100 cached) · 3,900 out · $0.031');
  });

  it('shows tokens only when no call had a price, never an invented one', () => {
    expect(usageTotalText(usageTotalOf([step({ promptTokens: 1_234, completionTokens: 56, unpricedCalls: 1 })]))).toBe('1,234 tokens in · 56 out');
  });

  it('reads a partly priced request as a floor naming its unpriced steps, and a step as naming its unpriced calls', () => {
    const priced = step({ promptTokens: 1_000, completionTokens: 10, costUsd: 0.031 });
    const partly = step({ phase: 'implement', item: { index: 0, label: 'Parse' }, promptTokens: 2_000, completionTokens: 20, calls: 3, costUsd: 0.004, unpricedCalls: 2 });
    const unpriced = step({ phase: 'summary', promptTokens: 500, completionTokens: 5, unpricedCalls: 1 });
    const total = usageTotalOf([priced, partly, unpriced]);
    expect(total).toMatchObject({ calls: 5, costUsd: 0.035, unpricedSteps: 2 });
    expect(usageTotalText(total)).toBe('3,500 tokens in · 35 out · ≥ $0.035, 2 steps unpriced');
    expect(stepUsageText(partly)).toBe('2,000 tokens in · 20 out · ≥ $0.004, 2 calls unpriced');
    expect(costTotalText({ costUsd: 0.004, unpricedSteps: 1 }, 'call')).toBe('≥ $0.004, 1 call unpriced');
  });

  it('names cache writes and reasoning when the server counted them, and marks estimated counts', () => {
    expect(stepUsageText(step({ promptTokens: 9_000, cachedTokens: 6_000, cacheWriteTokens: 2_000, completionTokens: 800, reasoningTokens: 300, costUsd: 0.0004 }))).toBe(
      '9,000 tokens in (6,000 cached, 2,000 written to cache) · 800 out (300 reasoning) · <$0.001',
    );
    expect(stepUsageText(step({ promptTokens: 900, completionTokens: 80, estimated: true, unpricedCalls: 1 }))).toBe('≈ 900 tokens in · 80 out');
  });

  it('adds nothing up to nothing', () => {
    expect(usageTotalOf([])).toEqual({
      promptTokens: 0,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      completionTokens: 0,
      reasoningTokens: 0,
      calls: 0,
      costUsd: null,
      unpricedSteps: 0,
      estimated: false,
      models: { research: null, plan: null, implement: null, summary: null },
    });
  });

  it('names the model of each phase: an Implement of several steps by its last, a phase without calls as null', () => {
    const step = (phase: StepUsage['phase'], model: string | undefined, index?: number): StepUsage => ({
      phase,
      ...(index === undefined ? {} : { item: { index, label: `Step ${index}` } }),
      ...(model ? { model } : {}),
      promptTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      completionTokens: 1,
      reasoningTokens: 0,
      calls: 1,
      costUsd: null,
      unpricedCalls: 1,
      estimated: false,
    });
    expect(usageTotalOf([step('research', 'o3'), step('implement', 'mini', 0), step('implement', 'mini-2', 1), step('summary', undefined)]).models).toEqual({
      research: 'o3',
      plan: null,
      implement: 'mini-2',
      summary: null,
    });
  });
});
