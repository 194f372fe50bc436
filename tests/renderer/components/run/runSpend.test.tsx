// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot, UnsequencedEvent } from '../../../../engine/contract/index.js';
import { usageTotalOf } from '../../../../engine/contract/index.js';
import { RequestSpend } from '../../../../renderer/src/components/chat/RequestSpend.js';
import { RunPanel } from '../../../../renderer/src/components/run/RunPanel.js';
import { applySnapshot, initialState } from '../../../../renderer/src/store/state.js';
import { idleSnapshot, message, play, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';
import { stepUsage } from '../../../support/stepUsage.js';

afterEach(cleanup);


const research = stepUsage('research', { promptTokens: 20_000, cachedTokens: 15_000, completionTokens: 1_500, costUsd: 0.011 });
const plan = stepUsage('plan', { promptTokens: 18_200, cachedTokens: 17_100, completionTokens: 1_400, costUsd: 0.012 });
const parse = stepUsage('implement', { item: { index: 0, label: 'Parse' }, promptTokens: 20_000, cachedTokens: 17_000, completionTokens: 1_000, calls: 4, costUsd: 0.008 });
/** A step whose calls went to a server that knows no price for the model. */
const local = stepUsage('implement', { item: { index: 1, label: 'Write' }, promptTokens: 5_000, completionTokens: 400, calls: 2, unpricedCalls: 2 });

const conversation = [message('u1', 'user', 'Convert the statement'), message('a1', 'assistant', 'Converted.'), message('u2', 'user', 'Tidy up')];
const spendRows = () => screen.getAllByTestId('step-spend').map((row) => [within(row).getByRole('term').textContent, within(row).getByRole('definition').textContent]);

describe('spend in the store', () => {
  const withUsage: Snapshot = {
    ...idleSnapshot,
    conversation,
    usage: { requests: { u1: usageTotalOf([research]), u2: usageTotalOf([plan]) }, current: { messageId: 'u2', steps: [plan] } },
  };

  it('takes each request’s total and the current run’s steps from the snapshot, and follows run-usage live', () => {
    const ready = applySnapshot(initialState, withUsage);
    expect(ready.requestUsage).toEqual(withUsage.usage?.requests);
    expect(ready.runUsage).toEqual({ messageId: 'u2', steps: [plan] });

    const resumed = play(ready, [
      { type: 'run-started', runId, messageId: 'u2', startedAt: 1 },
      { type: 'run-usage', runId, messageId: 'u2', steps: [plan, parse] },
    ]);
    expect(resumed.runUsage).toEqual({ messageId: 'u2', steps: [plan, parse] });
    expect(resumed.requestUsage.u2).toEqual(usageTotalOf([plan, parse]));
    expect(resumed.requestUsage.u1).toEqual(withUsage.usage?.requests.u1);
  });

  it('starts a new request’s run from nothing, and forgets what an undo or a discard cleared', () => {
    const ready = applySnapshot(initialState, withUsage);
    const next: UnsequencedEvent[] = [
      { type: 'message-added', runId: null, message: message('u3', 'user', 'Again') },
      { type: 'run-started', runId, messageId: 'u3', startedAt: 1 },
    ];
    expect(play(ready, next).runUsage).toBeNull();
    expect(play(ready, next).requestUsage).toEqual(withUsage.usage?.requests);

    const undone = play(ready, [{ type: 'conversation-reset', runId: null, messages: conversation.slice(0, 2) }]);
    expect(undone.requestUsage).toEqual({ u1: withUsage.usage?.requests.u1 });
    expect(undone.runUsage).toBeNull();
    // "Retry failed steps" takes the summary back: the request and its run's figures stay.
    expect(play(ready, [{ type: 'conversation-reset', runId: null, messages: conversation }]).runUsage).toEqual(ready.runUsage);

    const discarded = play(ready, [{ type: 'message-added', runId: null, message: message('a2', 'assistant', 'Run discarded during planning.') }]);
    expect(discarded.runUsage).toBeNull();
    expect(discarded.requestUsage.u2).toEqual(withUsage.usage?.requests.u2);
    expect(applySnapshot(ready, null)).toMatchObject({ requestUsage: {}, runUsage: null });
  });
});

describe('the run panel’s spend per step', () => {
  it('lists Research, Plan, each item and Summary with tokens in (cached), out and cost, then the total, as the run goes', async () => {
    const harness = runViewHarness();
    await harness.render(<RunPanel />);
    harness.emit({ type: 'run-started', runId, messageId: 'u1', startedAt: 1 }, { type: 'run-usage', runId, messageId: 'u1', steps: [research] });
    expect(spendRows()).toEqual([['Research', '20,000 tokens in (15,000 cached) · 1,500 out · $0.011']]);
    expect(screen.queryByTestId('run-spend-total')).toBeNull();

    const summary = stepUsage('summary', { promptTokens: 3_000, completionTokens: 300, costUsd: 0.002 });
    harness.emit({ type: 'run-usage', runId, messageId: 'u1', steps: [research, plan, parse, summary] });
    expect(spendRows()).toEqual([
      ['Research', '20,000 tokens in (15,000 cached) · 1,500 out · $0.011'],
      ['Plan', '18,200 tokens in (17,100 cached) · 1,400 out · $0.012'],
      ['Step 1: Parse', '20,000 tokens in (17,000 cached) · 1,000 out · $0.008'],
      ['Summary', '3,000 tokens in · 300 out · $0.002'],
    ]);
    expect(screen.getByTestId('run-spend-total').textContent).toBe('Total61,200 tokens in (49,100 cached) · 4,200 out · $0.033');
  });

  it('shows tokens only for a step no price is known for, and the total as a floor naming it', async () => {
    const harness = runViewHarness();
    await harness.render(<RunPanel />);
    harness.emit({ type: 'run-started', runId, messageId: 'u1', startedAt: 1 }, { type: 'run-usage', runId, messageId: 'u1', steps: [parse, local] });
    expect(spendRows()).toEqual([
      ['Step 1: Parse', '20,000 tokens in (17,000 cached) · 1,000 out · $0.008'],
      ['Step 2: Write', '5,000 tokens in · 400 out'],
    ]);
    expect(screen.getByTestId('run-spend-total').textContent).toBe('Total25,000 tokens in (17,000 cached) · 1,400 out · ≥ $0.008, 1 step unpriced');
  });

  it('shows the current run’s steps from the snapshot after a reload, with no run events left to replay', async () => {
    const harness = runViewHarness({ snapshot: { ...idleSnapshot, usage: { requests: { u1: usageTotalOf([research]) }, current: { messageId: 'u1', steps: [research] } } } });
    await harness.render(<RunPanel />);
    expect(screen.getByTestId('run-empty')).toBeTruthy();
    expect(spendRows()).toEqual([['Research', '20,000 tokens in (15,000 cached) · 1,500 out · $0.011']]);
  });
});

describe('the request’s total in the chat', () => {
  const snapshot: Snapshot = {
    ...idleSnapshot,
    conversation,
    usage: {
      requests: { u1: usageTotalOf([research, plan, parse, local]), u2: usageTotalOf([local]) },
      current: null,
    },
  };

  async function showTotals() {
    const harness = runViewHarness({ snapshot });
    await harness.render(
      <>
        {conversation.map((entry) => (
          <section key={entry.id} data-testid={`line-${entry.id}`}>
            <RequestSpend message={entry} />
          </section>
        ))}
      </>,
    );
    return harness;
  }
  const line = (id: string) => screen.getByTestId(`line-${id}`).textContent;

  it('reads as tokens in (cached), out and cost; a floor when a step had no price; tokens only when none had', async () => {
    await showTotals();
    expect(line('u1')).toBe('63,200 tokens in (49,100 cached) · 4,300 out · ≥ $0.031, 1 step unpriced');
    expect(line('u2')).toBe('5,000 tokens in · 400 out');
    expect(line('a1')).toBe('');
  });

  it('follows the running request live', async () => {
    const harness = await showTotals();
    harness.emit({ type: 'run-started', runId, messageId: 'u2', startedAt: 1 }, { type: 'run-usage', runId, messageId: 'u2', steps: [local, stepUsage('summary', { promptTokens: 1_000, completionTokens: 100, costUsd: 0.001 })] });
    expect(line('u2')).toBe('6,000 tokens in · 500 out · ≥ $0.001, 1 step unpriced');
  });
});
