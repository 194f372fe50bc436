// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunPanel } from '../../../../renderer/src/components/run/RunPanel.js';
import { midRun, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

describe('the run panel when a request was fitted to the context budget', () => {
  it('shows the note in the activity feed and the budget line on the context meter', async () => {
    const harness = runViewHarness();
    await harness.render(<RunPanel />);
    harness.emit(...midRun.slice(0, 5));
    expect(screen.queryByTestId('context-budget')).toBeNull();

    harness.emit({ type: 'context-trimmed', runId, phase: 'research', setAside: 12, condensed: 0, cut: 0, promptTokens: 11_000, budget: 24_000, contextWindow: 32_000 });

    expect(within(screen.getByTestId('activity-feed')).getByTestId('context-note').textContent).toBe('12 older results set aside; the model can recall them');
    expect(screen.getByTestId('context-budget').textContent).toBe(
      'Budget per request: 24,000 tokens (75% of 32,000); older results are set aside beyond it and the model can recall them.',
    );
  });
});

describe('the context meter', () => {
  it('says which window the run fits to and where it was learned', async () => {
    const harness = runViewHarness();
    await harness.render(<RunPanel />);
    harness.emit(...midRun.slice(0, 5));
    expect(screen.queryByTestId('context-window')).toBeNull();

    harness.emit({ type: 'context-window', runId, tokens: 4_096, source: 'server', detail: 'Ollama num_ctx 4,096 (the model supports 131,072)' });

    expect(screen.getByTestId('context-window').textContent).toBe('Window: 4,096 tokens, from Ollama num_ctx 4,096 (the model supports 131,072)');
  });
});
