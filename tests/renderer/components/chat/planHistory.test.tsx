// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../../engine/contract/index.js';
import { RunFilesLine } from '../../../../renderer/src/components/chat/RunFilesLine.js';
import { applySnapshot, initialState } from '../../../../renderer/src/store/state.js';
import { idleSnapshot, item, message, play, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

const conversation = [
  message('u1', 'user', 'Convert the statement\nwith details'),
  message('a1', 'assistant', 'Converted, one step failed.'),
  message('u2', 'user', 'Look around'),
  message('a2', 'assistant', 'Run discarded during planning, before any file was changed.'),
  message('u3', 'user', 'Tidy up'),
];

const withHistory: Snapshot = {
  ...idleSnapshot,
  conversation,
  runs: {
    u1: { research: true, plan: { done: 3, failed: 1, total: 4 } },
    u2: { research: true, plan: null },
  },
};

const earlierPlan = [item(0, 'Parse', 'done'), item(1, 'Categorise', 'done'), item(2, 'Total', 'done'), item(3, 'Workbook', 'failed', 'write_xlsx rejected the sheet name')];
const earlierPlanText = '# Execution Plan\n\n## Items\n- [x] 1. Parse — do parse\n- [x] 2. Categorise — do categorise\n- [x] 3. Total — do total\n- [!] 4. Workbook — do workbook [Failed: write_xlsx rejected the sheet name]\n';

describe('the plan history in the store', () => {
  it('takes each request’s kept run from the snapshot, and drops those of requests an undo removed', () => {
    const ready = applySnapshot(initialState, withHistory);
    expect(ready.runs).toEqual(withHistory.runs);

    const undone = play(ready, [{ type: 'conversation-reset', runId: null, messages: conversation.slice(0, 2) }]);

    expect(undone.runs).toEqual({ u1: withHistory.runs!.u1 });
    expect(applySnapshot(ready, null).runs).toEqual({});
    expect(applySnapshot(ready, { ...withHistory, runs: undefined }).runs).toEqual({});
  });
});

describe('View research and View plan on each request', () => {
  async function showLines(answers: NonNullable<Parameters<typeof runViewHarness>[0]>['answers'] = {}) {
    const harness = runViewHarness({ snapshot: withHistory, answers });
    await harness.render(
      <>
        {conversation.map((entry) => (
          <section key={entry.id} data-testid={`line-${entry.id}`}>
            <RunFilesLine message={entry} />
          </section>
        ))}
      </>,
    );
    return harness;
  }
  const line = (id: string) => within(screen.getByTestId(`line-${id}`));

  it('shows each request’s plan outcome and the buttons for what its run kept; nothing for a request whose run kept nothing', async () => {
    await showLines();

    expect(line('u1').getByTestId('plan-tally').textContent).toBe('Plan: 3/4 done, 1 failed');
    expect(line('u1').getAllByRole('button').map((button) => button.textContent)).toEqual(['View research', 'View plan']);
    expect(line('u2').queryByTestId('plan-tally')).toBeNull();
    expect(line('u2').getAllByRole('button').map((button) => button.textContent)).toEqual(['View research']);
    expect(screen.getByTestId('line-u3').textContent).toBe('');
    expect(screen.getByTestId('line-a1').textContent).toBe('');
  });

  it('opens an earlier request’s plan with each step’s outcome, asking the engine for that request’s file', async () => {
    const harness = await showLines({ 'session:run-file': () => ({ ok: true, value: { text: earlierPlanText, items: earlierPlan } }) });

    await act(async () => fireEvent.click(line('u1').getByRole('button', { name: 'View plan' })));

    expect(harness.sent('session:run-file')).toEqual([{ messageId: 'u1', file: 'plan' }]);
    const dialog = within(screen.getByTestId('rpi-file-dialog'));
    expect(dialog.getByText('For the request “Convert the statement”')).toBeTruthy();
    const steps = within(dialog.getByTestId('plan-outcomes')).getAllByRole('listitem');
    expect(steps.map((step) => step.dataset.status)).toEqual(['done', 'done', 'done', 'failed']);
    expect(steps[3]!.textContent).toContain('Failed: write_xlsx rejected the sheet name');
    expect(dialog.getByText('plan.md as written')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('rpi-file-dialog')).toBeNull();
  });

  it('says why when the file was not kept, and shows a refusal in the dialog', async () => {
    const reason = 'No research was kept for this request: its run stopped before writing it, or it ran before the workbench kept plan history.';
    let refuse = false;
    await showLines({
      'session:run-file': () => (refuse ? { ok: false, error: 'session:run-file: The workbench state file research.md is a symlink.' } : { ok: true, value: { text: null, reason } }),
    });

    await act(async () => fireEvent.click(line('u2').getByRole('button', { name: 'View research' })));
    expect(within(screen.getByTestId('rpi-file-dialog')).getByText(reason)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    refuse = true;
    await act(async () => fireEvent.click(line('u2').getByRole('button', { name: 'View research' })));
    expect(within(screen.getByTestId('rpi-file-dialog')).getByText('The workbench state file research.md is a symlink.')).toBeTruthy();
  });

  it('follows the request whose run is going on: its buttons at once, its plan outcome as the steps finish', async () => {
    const harness = await showLines();
    expect(screen.getByTestId('line-u3').textContent).toBe('');

    harness.emit({ type: 'run-started', runId, messageId: 'u3', startedAt: 1_000 });
    expect(line('u3').getAllByRole('button').map((button) => button.textContent)).toEqual(['View research', 'View plan']);
    expect(line('u3').queryByTestId('plan-tally')).toBeNull();

    harness.emit({ type: 'plan-updated', runId, items: [item(0, 'Tidy', 'done'), item(1, 'Sweep')] });
    expect(line('u3').getByTestId('plan-tally').textContent).toBe('Plan: 1/2 done');
    expect(line('u1').getByTestId('plan-tally').textContent).toBe('Plan: 3/4 done, 1 failed');
  });

  it('shows nothing for a request whose id names what every object inherits (a planted conversation)', async () => {
    const odd = ['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((id) => message(id, 'user', `Request ${id}`));
    const harness = runViewHarness({ snapshot: { ...withHistory, conversation: [...conversation, ...odd] } });
    await harness.render(
      <>
        {odd.map((entry) => (
          <section key={entry.id} data-testid={`line-${entry.id}`}>
            <RunFilesLine message={entry} />
          </section>
        ))}
      </>,
    );
    for (const entry of odd) expect(screen.getByTestId(`line-${entry.id}`).innerHTML).toBe('');
  });
});
