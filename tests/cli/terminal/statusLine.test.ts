import { describe, expect, it } from 'vitest';
import type { PlanItem, WorkbenchEvent } from '../../../engine/contract/index.js';
import { progressBar } from '../../../cli/terminal/progressBar.js';
import { applyToProgress, initialProgress, type RunProgress } from '../../../cli/terminal/runProgress.js';
import { formatStatusLine, phaseText, stepLine } from '../../../cli/terminal/statusLine.js';
import { formatDuration, formatElapsed, formatTokens } from '../../../cli/terminal/units.js';

const item = (index: number, status: PlanItem['status']): PlanItem => ({
  index,
  number: index + 1,
  label: `Item ${index + 1}`,
  description: '',
  status,
  rawLine: '',
});

describe('the status line', () => {
  it('folds the run events into phase, step, plan progress and tokens', () => {
    const events: WorkbenchEvent[] = [
      { type: 'phase-started', seq: 1, runId: 'r', phase: 'research' },
      { type: 'usage', seq: 2, runId: 'r', phase: 'research', promptTokens: 1000, completionTokens: 200, contextWindow: 8000 },
      { type: 'plan-updated', seq: 3, runId: 'r', items: [item(0, 'done'), item(1, 'failed'), item(2, 'pending'), item(3, 'pending')] },
      { type: 'phase-started', seq: 4, runId: 'r', phase: 'implement', model: 'small-model' },
      { type: 'implement-progress', seq: 5, runId: 'r', current: 3, total: 4, label: 'Parse statement' },
      { type: 'usage', seq: 6, runId: 'r', phase: 'implement', promptTokens: 50, completionTokens: 50, contextWindow: 8000 },
      { type: 'model-status', seq: 7, runId: 'r', phase: 'implement', state: 'retrying', attempt: 2, attempts: 5, delayMs: 2000, reason: 'HTTP 500' },
    ];
    const progress = events.reduce(applyToProgress, initialProgress);
    expect(progress).toEqual({
      phase: 'implement',
      step: { current: 3, total: 4, label: 'Parse statement' },
      items: { finished: 2, total: 4 },
      tokens: 1300,
      model: 'retrying in 2 s (attempt 2 of 5): HTTP 500',
      phaseModel: 'small-model',
    });
    expect(applyToProgress(progress, { type: 'tool-started', seq: 8, runId: 'r', callId: 'c', tool: 'read_file', args: {} }).model).toBeNull();
    expect(applyToProgress(progress, { type: 'phase-started', seq: 7, runId: 'r', phase: 'summary' }).step).toBeNull();
  });

  it('says what each phase is doing, with the step while implementing', () => {
    expect(phaseText(initialProgress)).toBe('Starting…');
    expect(phaseText({ phase: 'research', step: null })).toBe('Research: analyzing files…');
    expect(phaseText({ phase: 'plan', step: null })).toBe('Plan: planning approach…');
    expect(phaseText({ phase: 'implement', step: { current: 3, total: 12, label: 'Parse statement' } })).toBe('Implement: step 3/12: Parse statement');
    expect(phaseText({ phase: 'summary', step: null })).toBe('Summary: summarizing results…');
  });

  it('names the model each step runs on in its line', () => {
    expect(stepLine({ phase: 'plan', step: null, phaseModel: 'o3' })).toBe('Plan: planning approach… · o3');
    expect(stepLine({ phase: 'implement', step: { current: 1, total: 2, label: 'Parse' }, phaseModel: 'gpt-4.1-mini' })).toBe('Implement: step 1/2: Parse · gpt-4.1-mini');
    expect(stepLine({ phase: 'research', step: null, phaseModel: null })).toBe('Research: analyzing files…');
  });

  const implementing: RunProgress = { phase: 'implement', step: { current: 3, total: 12, label: 'Parse statement' }, items: { finished: 2, total: 12 }, tokens: 12_345, model: null, phaseModel: null };

  it('shows phase and step, a bar over the plan items, elapsed time and tokens', () => {
    expect(formatStatusLine(implementing, 83_000, 120)).toBe('Implement: step 3/12: Parse statement · [██░░░░░░░░░░] 2/12 · 1m 23s · 12.3k tokens');
    expect(formatStatusLine({ ...initialProgress, phase: 'research' }, 4_000, 120)).toBe('Research: analyzing files… · 4s · 0 tokens');
    expect(formatStatusLine({ ...initialProgress, phase: 'research', model: 'the server is queueing the request' }, 4_000, 120)).toBe(
      'Research: analyzing files… — the server is queueing the request · 4s · 0 tokens',
    );
  });

  it('never fills the terminal width: the bar gives way first, then the end of the step label', () => {
    expect(formatStatusLine(implementing, 83_000, 60)).toBe('Implement: step 3/12: Parse statem… · 1m 23s · 12.3k tokens');
    expect(formatStatusLine(implementing, 83_000, 60)).toHaveLength(59);
    expect(formatStatusLine(implementing, 83_000, 30)).toBe('Implement: step 3/12: Parse …');
  });

  it('draws the progress bar in proportion, clamped', () => {
    expect(progressBar(0, 4)).toBe('[░░░░░░░░░░░░] 0/4');
    expect(progressBar(1, 4)).toBe('[███░░░░░░░░░] 1/4');
    expect(progressBar(4, 4)).toBe('[████████████] 4/4');
    expect(progressBar(3, 3, 6)).toBe('[██████] 3/3');
    expect(progressBar(0, 0, 4)).toBe('[░░░░] 0/0');
  });

  it('formats times and token counts compactly', () => {
    expect([formatElapsed(0), formatElapsed(59_999), formatElapsed(65_000), formatElapsed(3_725_000)]).toEqual(['0s', '59s', '1m 05s', '1h 02m']);
    expect([formatDuration(12.4), formatDuration(1_260), formatDuration(125_000)]).toEqual(['12 ms', '1.3 s', '2m 05s']);
    expect([formatTokens(850), formatTokens(1_000), formatTokens(12_345), formatTokens(456_789), formatTokens(1_250_000)]).toEqual([
      '850 tokens',
      '1k tokens',
      '12.3k tokens',
      '457k tokens',
      '1.3M tokens',
    ]);
  });
});
