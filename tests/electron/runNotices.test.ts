import { describe, expect, it } from 'vitest';
import type { Message } from '../../engine/contract/index.js';
import { firstLine, noticeFor, RunNotices, type Notice } from '../../electron/runNotices.js';
import { fakeSession, runEvent } from './fakes.js';

const folder = '/home/ada/ledger';
const finished = (status: 'done' | 'failed' | 'cancelled', error?: string) => runEvent('run-finished', { finishedAt: 2_000, status, ...(error ? { error } : {}) });
const answer = (text: string, role: Message['role'] = 'assistant') => runEvent('message-added', { message: { id: 'm2', role, text, ts: 1 } });
const approval = (fields: { path?: string; args?: Record<string, unknown>; tool?: string }) =>
  runEvent('approval-requested', {
    requestId: 'a1',
    tool: fields.tool ?? 'write_file',
    args: fields.args ?? {},
    ...(fields.path ? { path: fields.path } : {}),
    reason: 'file changes need your approval',
    canAlwaysAllow: false,
    expiresAt: 0,
  });

/** A session on the folder whose notices are recorded; `clicks[i]()` clicks the i-th notice. */
async function noticeSession(options: { inFront?: boolean } = {}) {
  const shown: Array<Notice & { closed: boolean }> = [];
  const clicks: Array<() => void> = [];
  const fake = fakeSession({
    watchers: (window, focus) => [
      new RunNotices({
        isFocused: () => window.isFocused(),
        focus,
        notify: (notice, onClick) => {
          const entry = { ...notice, closed: false };
          shown.push(entry);
          clicks.push(onClick);
          return { close: () => void (entry.closed = true) };
        },
      }),
    ],
  });
  fake.window.inFront = options.inFront ?? false;
  await fake.session.open(folder);
  const workbench = fake.opened.get(folder);
  if (!workbench) throw new Error('the folder did not open');
  return { ...fake, shown, clicks, emit: (...events: Parameters<typeof workbench.emit>[0][]) => events.forEach((event) => workbench.emit(event)) };
}

describe('notices of a window the user is not looking at', () => {
  it('says a run finished with the first line of its summary; a click brings the window to the front', async () => {
    const { window, shown, clicks, emit } = await noticeSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), answer('## Added a greeting module\n\nDetails…'), finished('done'));
    expect(shown).toEqual([{ title: 'Run finished in ledger', body: 'Added a greeting module', closed: false }]);
    clicks[0]?.();
    expect(window.focused).toBe(1);
  });

  it('shows nothing while the window is focused', async () => {
    const { shown, emit } = await noticeSession({ inFront: true });
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), approval({}), finished('failed', 'The model server did not answer.'));
    expect(shown).toEqual([]);
  });

  it('says an action waits for approval, and a newer notice replaces it', async () => {
    const { shown, emit } = await noticeSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), approval({ path: `${folder}/src/greeting.ts` }), finished('cancelled'));
    expect(shown).toEqual([
      { title: 'Approval needed in ledger', body: 'write_file src/greeting.ts — file changes need your approval', closed: true },
      { title: 'Run cancelled in ledger', body: 'The run was cancelled.', closed: false },
    ]);
  });

  it("uses only this run's summary, never the user's own message", async () => {
    const { shown, emit } = await noticeSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), answer('First run done.'), finished('done'));
    emit(runEvent('run-started', { messageId: 'm3', startedAt: 1_000 }), answer('Add tests', 'user'), finished('done'));
    expect(shown.map((notice) => notice.body)).toEqual(['First run done.', 'The run is done.']);
  });

  it('closes its notice when the window lets go of the folder', async () => {
    const { shown, emit, session } = await noticeSession();
    emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), approval({}));
    await session.close();
    expect(shown[0]?.closed).toBe(true);
  });
});

describe('noticeFor', () => {
  const context = { folder, summary: null };

  it('gives the first line of a failure', () => {
    expect(noticeFor(finished('failed', 'The model server answered 401.\nCheck the API key in Settings.'), context)).toEqual({
      title: 'Run failed in ledger',
      body: 'The model server answered 401.',
    });
  });

  it('names the command a run_command approval would run', () => {
    expect(noticeFor(approval({ tool: 'run_command', args: { command: 'npm test' } }), context)?.body).toBe(
      'run_command npm test — file changes need your approval',
    );
  });

  it('says how many steps a plan waiting for review has', () => {
    const items = [{ index: 0, number: 1, label: 'Parse statement', description: 'read it', status: 'pending' as const, rawLine: '' }];
    expect(noticeFor(runEvent('plan-ready', { items, riskyItems: [], planText: '' }), context)).toEqual({
      title: 'Plan ready for review in ledger',
      body: '1 step, starting with: Parse statement',
    });
  });

  it('shows a question of the model on one line, cut to fit', () => {
    const question = runEvent('question-asked', { requestId: 'q1', phase: 'research', question: `Which format?\n${'x'.repeat(200)}`, expiresAt: 0 });
    const notice = noticeFor(question, context);
    expect(notice?.title).toBe('A question for you in ledger');
    expect(notice?.body).toMatch(/^Which format\? x+…$/);
    expect(notice?.body.length).toBe(140);
  });

  it('has nothing to say about the other events', () => {
    expect(noticeFor(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }), context)).toBeNull();
    expect(noticeFor(runEvent('phase-started', { phase: 'plan' }), context)).toBeNull();
    expect(noticeFor(runEvent('approval-resolved', { requestId: 'a1', decision: 'approved' }), context)).toBeNull();
  });
});

describe('firstLine', () => {
  it('skips blank lines and Markdown marks, and clips long lines', () => {
    expect(firstLine('\n\n- **Added** `src/a.ts`\nmore')).toBe('Added src/a.ts');
    expect(firstLine('   \n')).toBeNull();
    expect(firstLine(null)).toBeNull();
    const clipped = firstLine('word '.repeat(100));
    expect(clipped?.length).toBeLessThanOrEqual(140);
    expect(clipped?.endsWith('…')).toBe(true);
  });
});
