import { describe, expect, it } from 'vitest';
import { addCostTotals, costTotalOf, costTotalText, dollarsText } from '../../../engine/contract/index.js';

describe('costTotalOf', () => {
  it('adds the priced steps', () => {
    expect(costTotalOf([0.02, 0.011])).toEqual({ costUsd: 0.031, unpricedSteps: 0 });
  });

  it('counts a step without a price apart, never as free', () => {
    expect(costTotalOf([0.02, null, 0.011])).toEqual({ costUsd: 0.031, unpricedSteps: 1 });
  });

  it('has no amount when no step had a price', () => {
    expect(costTotalOf([null, null])).toEqual({ costUsd: null, unpricedSteps: 2 });
    expect(costTotalOf([])).toEqual({ costUsd: null, unpricedSteps: 0 });
  });
});

describe('addCostTotals', () => {
  it('adds a resumed run to its earlier part, unpriced steps included', () => {
    expect(addCostTotals([{ costUsd: 0.02, unpricedSteps: 1 }, { costUsd: null, unpricedSteps: 2 }, { costUsd: 0.011, unpricedSteps: 0 }])).toEqual({
      costUsd: 0.031,
      unpricedSteps: 3,
    });
    expect(addCostTotals([{ costUsd: null, unpricedSteps: 1 }])).toEqual({ costUsd: null, unpricedSteps: 1 });
  });
});

describe('costTotalText', () => {
  it('reads as the amount when every step had a price', () => {
    expect(costTotalText({ costUsd: 0.031, unpricedSteps: 0 })).toBe('$0.031');
  });

  it('reads as a floor naming the unpriced steps', () => {
    expect(costTotalText({ costUsd: 0.031, unpricedSteps: 1 })).toBe('≥ $0.031, 1 step unpriced');
    expect(costTotalText({ costUsd: 1.5, unpricedSteps: 3 })).toBe('≥ $1.50, 3 steps unpriced');
  });

  it('is null when nothing had a price: tokens only, no made-up figure', () => {
    expect(costTotalText({ costUsd: null, unpricedSteps: 4 })).toBeNull();
  });
});

describe('dollarsText', () => {
  it.each([
    [0, '$0'],
    [0.0004, '<$0.001'],
    [0.0312, '$0.031'],
    [0.9994, '$0.999'],
    [0.9996, '$1.00'],
    [1.2449, '$1.24'],
    [1234.5, '$1,234.50'],
  ])('%d → %s', (usd, text) => {
    expect(dollarsText(usd)).toBe(text);
  });
});
