import { describe, expect, it } from 'vitest';
import { formatBytes, formatSeconds } from '../../../engine/contract/units.js';

describe('quantities as a message says them', () => {
  it('says a duration in seconds, to the tenth past one second and the hundredth below it', () => {
    expect([1000, 500, 250, 50, 1500, 2500, 90_000, 60_000].map(formatSeconds)).toEqual([
      '1 second',
      '0.5 seconds',
      '0.25 seconds',
      '0.05 seconds',
      '1.5 seconds',
      '2.5 seconds',
      '90 seconds',
      '60 seconds',
    ]);
  });

  it('says a size in bytes below 1 KB and in the unit that fits above', () => {
    expect([0, 1023, 1536, 10 * 1024 * 1024, 5 * 1024 ** 4].map(formatBytes)).toEqual(['0 B', '1023 B', '1.5 KB', '10 MB', '5.0 TB']);
  });
});
