// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunPanel } from '../../../../renderer/src/components/run/RunPanel.js';
import { idleSnapshot, item, midRun, restOfRun, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function showPanel(options: Parameters<typeof runViewHarness>[0] = {}) {
  const harness = runViewHarness(options);
  await harness.render(<RunPanel />);
  return harness;
}

const stepStates = () => within(screen.getByTestId('phase-stepper')).getAllByRole('listitem').map((step) => `${step.dataset.phase}:${step.dataset.state}`);
const statusLine = () => screen.getByTestId('status-line').textContent;
const checklist = () => within(screen.getByTestId('plan-checklist')).getAllByRole('listitem').map((entry) => entry.dataset.status);

describe('the run panel', () => {
  it('says what will show here before any run', async () => {
    await showPanel();
    expect(screen.getByTestId('run-empty').textContent).toMatch(/^No run yet\./);
    expect(screen.queryByTestId('phase-stepper')).toBeNull();
    expect(screen.queryByRole('button', { name: 'View plan' })).toBeNull();
  });

  it('moves the stepper and the status line along the phases', async () => {
    const harness = await showPanel();
    harness.emit(...midRun.slice(0, 2));
    expect(stepStates()).toEqual(['research:active', 'plan:pending', 'implement:pending', 'summary:pending']);
    expect(screen.getByRole('status').textContent).toBe('Analyzing files…');
    expect(within(screen.getByTestId('phase-stepper')).getByText('Research').closest('li')?.getAttribute('aria-current')).toBe('step');
    harness.emit(...midRun.slice(2, 7));
    expect(statusLine()).toBe('Planning approach…');
    harness.emit(...midRun.slice(7));
    expect(stepStates()).toEqual(['research:done', 'plan:done', 'implement:active', 'summary:pending']);
    expect(statusLine()).toBe('Working on step 1 of 2: Parse');
    expect(screen.getByText('An action waits for your approval in the chat.')).toBeTruthy();
    harness.emit(...restOfRun);
    expect(stepStates()).toEqual(['research:done', 'plan:done', 'implement:done', 'summary:done']);
    expect(statusLine()).toBe('Finished');
  });

  it('shows a failed phase with its error', async () => {
    const harness = await showPanel();
    harness.emit(
      ...midRun.slice(0, 2),
      { type: 'phase-completed', runId, phase: 'research', ok: false, error: 'The model server did not answer.' },
      { type: 'run-finished', finishedAt: 2_000, runId, status: 'failed', phase: 'research', error: 'The model server did not answer.' },
    );
    expect(stepStates()[0]).toBe('research:failed');
    expect(screen.getByTestId('phase-error').textContent).toBe('Research: The model server did not answer.');
    expect(statusLine()).toBe('Failed during Research');
  });

  it('ticks the plan checklist off live: running, done, failed with the reason', async () => {
    const harness = await showPanel();
    harness.emit(...midRun);
    expect(checklist()).toEqual(['running', 'pending']);
    harness.emit(...restOfRun.slice(0, 4));
    expect(checklist()).toEqual(['done', 'running']);
    harness.emit(...restOfRun.slice(4, 7));
    expect(checklist()).toEqual(['done', 'failed']);
    const failed = within(screen.getByTestId('plan-checklist')).getAllByRole('listitem')[1]!;
    expect(within(failed).getByText('Failed: rm failed')).toBeTruthy();
  });

  it('groups tool calls by phase and step, with the latest group open; others open on demand', async () => {
    const harness = await showPanel();
    harness.emit(...midRun, ...restOfRun.slice(0, 6));
    const feed = screen.getByTestId('activity-feed');
    const toggles = within(feed).getAllByRole('button');
    expect(toggles.map((toggle) => [toggle.textContent, toggle.getAttribute('aria-expanded')])).toEqual([
      ['▸Research1', 'false'],
      ['▸Step 1: Parse1', 'false'],
      ['▾Step 2: Write1, 1 failed', 'true'],
    ]);
    const failed = within(feed).getByText('run_command').closest('li')!;
    expect(failed.dataset.status).toBe('failed');
    expect(failed.textContent).toBe('run_commandrm -rf buildfailed900 msexit code 1');
    fireEvent.click(toggles[0]!);
    expect(toggles[0]!.getAttribute('aria-expanded')).toBe('true');
    expect(within(feed).getByText('list_files').closest('li')?.textContent).toBe('list_files.ok12 ms3 entries');
    fireEvent.click(toggles[2]!);
    expect(within(feed).queryByText('run_command')).toBeNull();
  });

  it('shows the last call against the context window, and the run total', async () => {
    const harness = await showPanel();
    harness.emit(...midRun.slice(0, 5));
    const meter = within(screen.getByTestId('context-meter')).getByRole('meter');
    expect([meter.getAttribute('aria-valuenow'), meter.getAttribute('aria-valuemax'), meter.getAttribute('aria-valuetext')]).toEqual(['1200', '32000', '4% of the context window']);
    expect(screen.getByTestId('run-tokens').textContent).toBe('Run total: 1,280 tokens (1,200 in, 80 out) over 1 call');
    harness.emit(...midRun.slice(5, 8));
    expect(screen.getByTestId('context-meter').textContent).toContain('≈ 2,000 / 32,000 (6%)');
    expect(screen.getByTestId('run-tokens').textContent).toBe('Run total: ≈ 3,580 tokens (3,200 in, 380 out) over 2 calls, estimated');
  });

  it('counts the elapsed time while running, and says how long it took', async () => {
    vi.useFakeTimers({ now: 1_000, toFake: ['Date', 'setInterval', 'clearInterval'] }); // the fixture's run-started
    const harness = await showPanel();
    harness.emit(...midRun.slice(0, 2));
    expect(screen.getByTestId('run-elapsed').textContent).toBe('Elapsed 0:00');
    act(() => vi.advanceTimersByTime(75_000));
    expect(screen.getByTestId('run-elapsed').textContent).toBe('Elapsed 1:15');
    harness.emit({ type: 'run-finished', finishedAt: 76_000, runId, status: 'cancelled', phase: 'research', error: 'Cancelled by the user.' });
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByTestId('run-elapsed').textContent).toBe('Took 1:15');
    expect(screen.getByTestId('run-error').textContent).toBe('Cancelled by the user.');
  });

  it("rebuilds itself from a snapshot after a reload, timing a running run from the engine's start", async () => {
    vi.useFakeTimers({ now: 43_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const runEvents = midRun.map((event, index) => ({ ...event, seq: index + 1 }) as typeof event & { seq: number });
    await showPanel({ snapshot: { ...idleSnapshot, running: true, lastSeq: runEvents.length, runEvents } });
    expect(stepStates()).toEqual(['research:done', 'plan:done', 'implement:active', 'summary:pending']);
    expect(statusLine()).toBe('Working on step 1 of 2: Parse');
    expect(screen.getByTestId('run-elapsed').textContent).toBe('Elapsed 0:42');
  });

  it('shows a saved plan and the files when the engine has no run to replay', async () => {
    const rpi = { hasResearch: true, hasPlan: true, items: [item(0, 'Parse', 'done'), item(1, 'Write')], originalCount: 2, allDone: false };
    await showPanel({ snapshot: { ...idleSnapshot, rpi } });
    expect(checklist()).toEqual(['done', 'pending']);
    expect(screen.getByRole('button', { name: 'View research' })).toBeTruthy();
  });
});

describe('research.md and plan.md in the app', () => {
  const withFiles = (files: Record<'research' | 'plan', string | null>) =>
    showPanel({
      snapshot: { ...idleSnapshot, rpi: { ...idleSnapshot.rpi, hasResearch: true } },
      answers: { 'rpi:read': (payload) => ({ ok: true, value: { text: files[(payload as { file: 'research' | 'plan' }).file] } }) },
    });

  it('shows plan.md as Markdown, without raw HTML', async () => {
    const harness = await withFiles({ research: null, plan: '# Execution Plan\n\n- [x] 1. Parse — **read** it\n\n<img src=x onerror=alert(1)><script>alert(2)</script>\n' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'View plan' })));
    expect(harness.sent('rpi:read')).toEqual([{ file: 'plan' }]);
    const dialog = screen.getByTestId('rpi-file-dialog');
    expect(within(dialog).getByRole('heading', { level: 1 }).textContent).toBe('Execution Plan');
    expect(within(dialog).getByText('read').tagName).toBe('STRONG');
    expect((within(dialog).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    expect(dialog.querySelector('img, script')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('rpi-file-dialog')).toBeNull();
  });

  it('says when the file is not written yet', async () => {
    await withFiles({ research: null, plan: null });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'View research' })));
    expect(within(screen.getByTestId('rpi-file-dialog')).getByText('Research has not been written yet for this request.')).toBeTruthy();
  });
});
