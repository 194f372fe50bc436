// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../../../engine/contract/index.js';
import { ChatRunCards } from '../../../../renderer/src/components/run/ChatRunCards.js';
import { item, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

const planText = '# Execution Plan\n\n## Items\n- [ ] 1. Parse — read the csv\n- [ ] 2. Clean up — delete the build folder\n';

async function showPlanReview(answer: (payload: unknown) => Result<unknown> = (payload) => ({ ok: true, value: payload })) {
  const harness = runViewHarness({ answers: { 'session:review-plan': answer } });
  await harness.render(<ChatRunCards />);
  harness.emit(
    { type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 },
    { type: 'phase-started', runId, phase: 'plan' },
    { type: 'phase-completed', runId, phase: 'plan', ok: true },
    { type: 'plan-ready', runId, items: [item(0, 'Parse'), item(1, 'Clean up')], riskyItems: [{ index: 1, reason: 'it deletes files' }], planText },
  );
  return harness;
}

const card = () => screen.getByTestId('plan-review-card');
const button = (name: string) => within(card()).getByRole('button', { name });

describe('the plan review card', () => {
  it('shows the plan, its risky steps flagged with why', async () => {
    await showPlanReview();
    const steps = within(card()).getAllByRole('listitem');
    expect(steps.map((step) => step.dataset.risky)).toEqual(['false', 'true']);
    expect(steps[0]!.textContent).toBe('1. Parse — do parse');
    expect(within(steps[1]!).getByText(/Risky: it deletes files/)).toBeTruthy();
    expect(within(card()).getByText('1 step looks risky: check it before approving.')).toBeTruthy();
  });

  it('approves the plan as it is', async () => {
    const harness = await showPlanReview();
    await act(async () => fireEvent.click(button('Approve plan')));
    expect(harness.sent('session:review-plan')).toEqual([{ decision: 'approve' }]);
    expect(within(card()).getByRole('status').textContent).toBe('Plan approved. The run goes on with the first step.');
    expect(within(card()).queryAllByRole('button')).toEqual([]);
  });

  it('approves an edited plan with the text as the user left it', async () => {
    const harness = await showPlanReview();
    fireEvent.click(button('Edit plan'));
    const editor = within(card()).getByLabelText(/^Plan/) as HTMLTextAreaElement;
    expect(editor.value).toBe(planText);
    const edited = planText.replace('- [ ] 2. Clean up — delete the build folder\n', '- [ ] 2. Report — list the totals\n');
    fireEvent.change(editor, { target: { value: edited } });
    await act(async () => fireEvent.click(button('Approve edited plan')));
    expect(harness.sent('session:review-plan')).toEqual([{ decision: 'edit', plan: edited }]);
  });

  it('will not send an emptied plan', async () => {
    const harness = await showPlanReview();
    fireEvent.click(button('Edit plan'));
    fireEvent.change(within(card()).getByLabelText(/^Plan/), { target: { value: '  ' } });
    expect((button('Approve edited plan') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button('Cancel'));
    expect(button('Approve plan')).toBeTruthy();
    expect(harness.sent('session:review-plan')).toEqual([]);
  });

  it('rejects the plan', async () => {
    const harness = await showPlanReview();
    await act(async () => fireEvent.click(button('Reject plan')));
    expect(harness.sent('session:review-plan')).toEqual([{ decision: 'reject' }]);
    harness.emit({ type: 'run-finished', finishedAt: 2_000, runId, status: 'cancelled', phase: 'plan', error: 'The plan was rejected.' });
    expect(screen.queryByTestId('plan-review-card')).toBeNull();
  });

  it('shows the engine refusing an edited plan, keeping the editor open', async () => {
    const refusal = 'session:review-plan: The edited plan has no items: each item is a line like "- [ ] 1. Label — what to do".';
    await showPlanReview(() => ({ ok: false, error: refusal }));
    fireEvent.click(button('Edit plan'));
    fireEvent.change(within(card()).getByLabelText(/^Plan/), { target: { value: 'just do it' } });
    await act(async () => fireEvent.click(button('Approve edited plan')));
    expect(within(card()).getByRole('alert').textContent).toBe('The edited plan has no items: each item is a line like "- [ ] 1. Label — what to do".');
    expect((within(card()).getByLabelText(/^Plan/) as HTMLTextAreaElement).value).toBe('just do it');
  });

  it('goes away once Implement starts', async () => {
    const harness = await showPlanReview();
    harness.emit({ type: 'phase-started', runId, phase: 'implement' });
    expect(screen.queryByTestId('plan-review-card')).toBeNull();
  });
});
