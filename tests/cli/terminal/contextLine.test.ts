import { describe, expect, it } from 'vitest';
import { formatContextLine } from '../../../cli/terminal/contextLine.js';

const event = { type: 'context-trimmed', seq: 9, runId: 'r', phase: 'research', setAside: 12, condensed: 0, cut: 1, promptTokens: 47_210, budget: 96_000, contextWindow: 128_000 } as const;

describe('the CLI line for a request fitted to the context budget', () => {
  it('says what was set aside and cut, the request against the budget, and that the model can recall it', () => {
    expect(formatContextLine(event)).toBe(
      '  ⋯ context: 12 older results set aside, 1 new result cut to fit (request ≈47,210 tokens, budget 96,000 of 128,000); the model can recall them',
    );
  });

  it('says so when the server refused the request as too long', () => {
    expect(formatContextLine({ ...event, setAside: 0, cut: 0, afterRefusal: true, budget: 6_144 })).toBe(
      '  ⋯ context: the server found the request too long, so the budget shrank and the turn is asked again (request ≈47,210 tokens, budget 6,144 of 128,000)',
    );
  });
});
