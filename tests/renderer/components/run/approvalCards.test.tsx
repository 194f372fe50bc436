// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result, UnsequencedEvent } from '../../../../engine/contract/index.js';
import { ChatRunCards } from '../../../../renderer/src/components/run/ChatRunCards.js';
import { runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const writeRequest = (overrides: Partial<Extract<UnsequencedEvent, { type: 'approval-requested' }>> = {}): UnsequencedEvent => ({
  type: 'approval-requested',
  runId,
  requestId: 'a1',
  tool: 'write_file',
  args: { path: 'out.csv', content: 'date,amount\n' },
  path: '/work/demo/out.csv',
  reason: 'file changes need your approval',
  canAlwaysAllow: false,
  expiresAt: Date.now() + 600_000,
  ...overrides,
});

const commandRequest = (canAlwaysAllow: boolean): UnsequencedEvent =>
  writeRequest({ requestId: 'a2', tool: 'run_command', args: { command: 'npm test', cwd: 'web' }, path: undefined, reason: 'commands need your approval', canAlwaysAllow });

const accepted = (decision: string) => (): Result<unknown> => ({ ok: true, value: { decision } });

/** Cards rendered over a store whose run asks `requests`; `approve` answers session:approve. */
async function showCards(requests: UnsequencedEvent[], approve: () => Result<unknown> = accepted('approved')) {
  const harness = runViewHarness({ answers: { 'session:approve': approve } });
  await harness.render(<ChatRunCards />);
  harness.emit({ type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 }, { type: 'phase-started', runId, phase: 'implement' }, ...requests);
  return harness;
}

const card = () => screen.getByTestId('approval-card');
const button = (name: string) => within(card()).getByRole('button', { name });

describe('an approval card', () => {
  it('shows the action, the real path, the reason and the exact arguments', async () => {
    await showCards([writeRequest()]);
    expect(card().dataset.status).toBe('pending');
    expect(within(card()).getByRole('heading').textContent).toBe('Write a file write_file');
    expect(within(card()).getByTestId('approval-path').textContent).toBe('/work/demo/out.csv');
    expect(within(card()).getByText('file changes need your approval')).toBeTruthy();
    expect(JSON.parse(within(card()).getByTestId('approval-args').textContent ?? '')).toEqual({ path: 'out.csv', content: 'date,amount\n' });
  });

  it('shows the exact command of run_command', async () => {
    await showCards([commandRequest(false)]);
    expect(within(card()).getByTestId('approval-command').textContent).toBe('npm test');
    expect(within(card()).getByText('web')).toBeTruthy();
  });

  it('approves: sends the answer, then shows it without buttons once the engine confirms', async () => {
    const harness = await showCards([writeRequest()]);
    await act(async () => fireEvent.click(button('Approve')));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a1', decision: 'approve' }]);
    harness.emit({ type: 'approval-resolved', runId, requestId: 'a1', decision: 'approved' });
    expect(card().dataset.status).toBe('approved');
    expect(within(card()).getByText('Approved')).toBeTruthy();
    expect(within(card()).queryAllByRole('button')).toEqual([]);
  });

  it('denies', async () => {
    const harness = await showCards([writeRequest()], accepted('denied'));
    await act(async () => fireEvent.click(button('Deny')));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a1', decision: 'deny' }]);
    harness.emit({ type: 'approval-resolved', runId, requestId: 'a1', decision: 'denied' });
    expect(card().dataset.status).toBe('denied');
    expect(within(card()).getByText('Denied')).toBeTruthy();
    expect(within(card()).queryAllByRole('button')).toEqual([]);
  });

  it('offers "Always allow this command" only when the engine does, and sends it', async () => {
    await showCards([writeRequest()]);
    expect(within(card()).queryByRole('button', { name: 'Always allow this command' })).toBeNull();
    cleanup();
    const harness = await showCards([commandRequest(true)]);
    await act(async () => fireEvent.click(button('Always allow this command')));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a2', decision: 'approve', alwaysAllow: true }]);
  });

  it('keeps an edit that is not JSON, or not an object, here with the reason, sending nothing', async () => {
    const harness = await showCards([writeRequest()]);
    fireEvent.click(button('Edit'));
    const editor = within(card()).getByLabelText('Arguments (JSON)');
    expect(JSON.parse((editor as HTMLTextAreaElement).value)).toEqual({ path: 'out.csv', content: 'date,amount\n' });
    fireEvent.change(editor, { target: { value: '{"path": "out.csv",' } });
    fireEvent.click(button('Approve with these arguments'));
    expect(within(card()).getByRole('alert').textContent).toMatch(/^This is not valid JSON \(.+\)\. Fix it, or cancel the edit\.$/);
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(editor, { target: { value: '["out.csv"]' } });
    fireEvent.click(button('Approve with these arguments'));
    expect(within(card()).getByRole('alert').textContent).toBe('The arguments must be a JSON object, like {"path": "notes.txt"}.');
    expect(harness.sent('session:approve')).toEqual([]);
    expect(card().dataset.status).toBe('pending');
  });

  it('shows the engine refusing an edit on the card, which stays open for another try', async () => {
    const refusal = 'session:approve: The edited arguments do not fit write_file: content: Invalid input.';
    const harness = await showCards([writeRequest()], () => ({ ok: false, error: refusal }));
    fireEvent.click(button('Edit'));
    fireEvent.change(within(card()).getByLabelText('Arguments (JSON)'), { target: { value: '{"path": "other.csv"}' } });
    await act(async () => fireEvent.click(button('Approve with these arguments')));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a1', decision: 'approve', args: { path: 'other.csv' } }]);
    expect(within(card()).getByRole('alert').textContent).toBe('The edited arguments do not fit write_file: content: Invalid input.');
    expect(card().dataset.status).toBe('pending');
    expect(within(card()).getByLabelText('Arguments (JSON)')).toBeTruthy();
    expect(button('Approve with these arguments')).toBeTruthy();
  });

  it('approves edited arguments and shows what the action ran with', async () => {
    const harness = await showCards([writeRequest()], accepted('edited'));
    fireEvent.click(button('Edit'));
    fireEvent.change(within(card()).getByLabelText('Arguments (JSON)'), { target: { value: '{"path": "out.csv", "content": "date\\n"}' } });
    await act(async () => fireEvent.click(button('Approve with these arguments')));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a1', decision: 'approve', args: { path: 'out.csv', content: 'date\n' } }]);
    harness.emit({ type: 'approval-resolved', runId, requestId: 'a1', decision: 'edited', args: { path: 'out.csv', content: 'date\n' } });
    expect(card().dataset.status).toBe('edited');
    expect(within(card()).getByText('Approved with edited arguments')).toBeTruthy();
    expect(JSON.parse(within(card()).getByTestId('approval-edited-args').textContent ?? '')).toEqual({ path: 'out.csv', content: 'date\n' });
    expect(within(card()).queryAllByRole('button')).toEqual([]);
  });

  it('strikes an expired request through, says it timed out, and offers nothing', async () => {
    const harness = await showCards([writeRequest()]);
    harness.emit({ type: 'approval-resolved', runId, requestId: 'a1', decision: 'expired' });
    expect(card().dataset.status).toBe('expired');
    expect(card().querySelector('del')?.textContent).toContain('/work/demo/out.csv');
    expect(within(card()).getByText('Timed out: nobody answered in time, so it was not run.')).toBeTruthy();
    expect(within(card()).queryAllByRole('button')).toEqual([]);
  });

  it('shows one card per request, each answered on its own', async () => {
    const harness = await showCards([writeRequest(), commandRequest(false)]);
    const [first, second] = screen.getAllByTestId('approval-card');
    await act(async () => fireEvent.click(within(second!).getByRole('button', { name: 'Deny' })));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a2', decision: 'deny' }]);
    harness.emit({ type: 'approval-resolved', runId, requestId: 'a2', decision: 'denied' });
    expect([first!.dataset.status, second!.dataset.status]).toEqual(['pending', 'denied']);
  });

  it('can be answered from the keyboard: every action is a named button', async () => {
    await showCards([commandRequest(true)]);
    const names = within(card()).getAllByRole('button').map((element) => [element.textContent, element.tabIndex]);
    expect(names).toEqual([['Approve', 0], ['Deny', 0], ['Edit', 0], ['Always allow this command', 0]]);
  });
});

describe('the approval countdown', () => {
  it('counts down to expiresAt every second, then says it is timing out', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
    await showCards([writeRequest({ expiresAt: 1_000_000 + 65_000 })]);
    const countdown = () => within(card()).getByTestId('approval-countdown').textContent;
    expect(countdown()).toBe('1:05 left');
    act(() => vi.advanceTimersByTime(5_000));
    expect(countdown()).toBe('1:00 left');
    act(() => vi.advanceTimersByTime(60_000));
    expect(countdown()).toBe('Timing out…');
  });

  it('stops once the request is answered', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const harness = await showCards([writeRequest({ expiresAt: 1_000_000 + 65_000 })]);
    harness.emit({ type: 'approval-resolved', runId, requestId: 'a1', decision: 'approved' });
    expect(within(card()).queryByTestId('approval-countdown')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
