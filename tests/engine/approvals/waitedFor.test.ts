import { describe, expect, it } from 'vitest';
import { waitedFor } from '../../../engine/approvals/toolGuard.js';

describe('waitedFor: how long an approval waited, in words for the model', () => {
  it.each([
    [1, '1 second'],
    [4, '4 seconds'],
    [60, '1 minute'],
    [90, '1 minute 30 seconds'],
    [600, '10 minutes'],
    [3_661, '61 minutes 1 second'],
  ])('%i s → %s', (seconds, words) => {
    expect(waitedFor(seconds)).toBe(words);
  });
});
