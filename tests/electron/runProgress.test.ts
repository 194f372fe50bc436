import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextProgressBar, noProgressBar, RunProgress } from '../../electron/runProgress.js';
import { fakeSession, runEvent } from './fakes.js';

const phase = (name: 'research' | 'plan' | 'implement' | 'summary') => runEvent('phase-started', { phase: name });
const item = (current: number, total: number) => runEvent('implement-progress', { current, total, label: `step ${current}` });
const finished = (status: 'done' | 'failed' | 'cancelled') =>
  runEvent('run-finished', { finishedAt: 2_000, status, ...(status === 'done' ? {} : { error: `run ${status}` }) });
const approval = () =>
  runEvent('approval-requested', { requestId: 'a1', tool: 'write_file', args: {}, reason: 'file changes need your approval', canAlwaysAllow: false, expiresAt: 0 });

/** A session on one folder whose taskbar bar is driven by RunProgress, as on `platform`. */
async function progressSession(platform: NodeJS.Platform = 'linux') {
  const fake = fakeSession({ watchers: (window) => [new RunProgress({ window, platform, errorShownMs: 3000 })] });
  await fake.session.open('/p/ledger');
  const workbench = fake.opened.get('/p/ledger');
  if (!workbench) throw new Error('the folder did not open');
  return { ...fake, emit: (...events: Parameters<typeof workbench.emit>[0][]) => events.forEach((event) => workbench.emit(event)) };
}

afterEach(() => vi.useRealTimers());

describe('the taskbar progress of a run', () => {
  it('is busy through Research and Plan, counts finished items during Implement, and goes when the run is done', async () => {
    const { window, emit } = await progressSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), phase('research'), phase('plan'), phase('implement'));
    emit(item(1, 4), item(2, 4), item(3, 4), item(4, 4), phase('summary'), finished('done'));
    expect(window.progress).toEqual([
      { value: 2, mode: 'indeterminate' },
      { value: 0, mode: 'normal' },
      { value: 0.25, mode: 'normal' },
      { value: 0.5, mode: 'normal' },
      { value: 0.75, mode: 'normal' },
      { value: 2, mode: 'indeterminate' },
      { value: -1, mode: 'none' },
    ]);
  });

  it('is left alone by the many events that do not change it', async () => {
    const { window, emit } = await progressSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }));
    emit(runEvent('tool-started', { callId: 'c1', tool: 'read_file', args: {} }), runEvent('summary-delta', { text: 'Added' }));
    emit(runEvent('usage', { phase: 'research', promptTokens: 1, completionTokens: 1, contextWindow: 8000 }));
    expect(window.progress).toHaveLength(1);
  });

  it('pauses while the run waits for an approval or a plan review, and goes on after', async () => {
    const { window, emit } = await progressSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), phase('implement'), item(2, 4), approval());
    emit(runEvent('approval-resolved', { requestId: 'a1', decision: 'approved' }));
    emit(runEvent('plan-ready', { items: [], riskyItems: [], planText: '' }), finished('cancelled'));
    expect(window.progress.slice(3)).toEqual([
      { value: 0.25, mode: 'paused' },
      { value: 0.25, mode: 'normal' },
      { value: 0.25, mode: 'paused' },
      { value: -1, mode: 'none' },
    ]);
  });

  it('pauses while a question of the model waits for the user, and is busy again after', async () => {
    const { window, emit } = await progressSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), phase('research'));
    emit(runEvent('question-asked', { requestId: 'q1', phase: 'research', question: 'Which format?', expiresAt: 0 }));
    emit(runEvent('question-answered', { requestId: 'q1', outcome: 'answered', answer: 'CSV' }));
    expect(window.progress.slice(-2)).toEqual([
      { value: 2, mode: 'paused' },
      { value: 2, mode: 'indeterminate' },
    ]);
  });

  it('shows a failed run red on Windows for a moment, then removes it', async () => {
    vi.useFakeTimers();
    const { window, emit } = await progressSession('win32');
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), finished('failed'));
    expect(window.progress.at(-1)).toEqual({ value: 1, mode: 'error' });
    vi.advanceTimersByTime(2999);
    expect(window.progress).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(window.progress.at(-1)).toEqual({ value: -1, mode: 'none' });
  });

  it('keeps the bar of a new run that starts while the red one shows', async () => {
    vi.useFakeTimers();
    const { window, emit } = await progressSession('win32');
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), finished('failed'), runEvent('run-started', { messageId: 'm2', startedAt: 3_000 }));
    vi.advanceTimersByTime(10_000);
    expect(window.progress.at(-1)).toEqual({ value: 2, mode: 'indeterminate' });
  });

  it('removes a failed run at once where a bar cannot be red (macOS, Linux)', async () => {
    const { window, emit } = await progressSession('darwin');
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), finished('failed'));
    expect(window.progress).toEqual([
      { value: 2, mode: 'indeterminate' },
      { value: -1, mode: 'none' },
    ]);
  });

  it('goes when the window lets go of the folder mid-run', async () => {
    const { window, emit, session } = await progressSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }));
    await session.open('/p/other');
    expect(window.progress.at(-1)).toEqual({ value: -1, mode: 'none' });
  });
});

describe('nextProgressBar', () => {
  it('is busy when the plan has no items, and never leaves 0…1 while counting', () => {
    expect(nextProgressBar(noProgressBar, item(1, 0))).toEqual({ value: 2, mode: 'indeterminate' });
    expect(nextProgressBar(noProgressBar, item(9, 4))).toEqual({ value: 1, mode: 'normal' });
    expect(nextProgressBar(noProgressBar, item(0, 4))).toEqual({ value: 0, mode: 'normal' });
  });

  it('does not show a paused bar when no run is showing one', () => {
    expect(nextProgressBar(noProgressBar, approval())).toBe(noProgressBar);
  });
});
