// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalPreview, Result, UnsequencedEvent } from '../../../../engine/contract/index.js';
import { diffFiles } from '../../../../engine/diff/index.js';
import { ChatRunCards } from '../../../../renderer/src/components/run/ChatRunCards.js';
import { runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

const bytes = (text: string) => ({ kind: 'file' as const, mode: 0o644, size: text.length, bytes: Buffer.from(text) });
const previewOf = (content: string): ApprovalPreview => ({
  files: [diffFiles({ path: 'notes.txt', before: bytes('alpha\nbeta\n'), after: bytes(content), context: Number.POSITIVE_INFINITY })],
  more: 0,
  problem: null,
});

const editRequest: UnsequencedEvent = {
  type: 'approval-requested',
  runId,
  requestId: 'a1',
  tool: 'write_file',
  args: { path: 'notes.txt', content: 'alpha\nBETA\n' },
  path: '/work/demo/notes.txt',
  reason: 'file changes need your approval',
  canAlwaysAllow: false,
  canAllowForRequest: true,
  expiresAt: Date.now() + 600_000,
};

async function showCard(answers: NonNullable<Parameters<typeof runViewHarness>[0]>['answers']) {
  const harness = runViewHarness({ answers });
  await harness.render(<ChatRunCards />);
  harness.emit({ type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 }, { type: 'phase-started', runId, phase: 'implement' }, editRequest);
  return harness;
}

const signs = () => [...screen.getByTestId('approval-diff').querySelectorAll('[data-sign]')].map((row) => `${row.getAttribute('data-sign')}${row.querySelector('.diff-text')?.textContent}`);

describe('an approval card shows what the call would change', () => {
  it('the diff against the file as it is, computed again for edited arguments before they are approved', async () => {
    const harness = await showCard({
      'session:approval-preview': (payload: unknown) => {
        const { args } = payload as { args?: { content?: string } };
        return { ok: true, value: previewOf(args?.content ?? 'alpha\nBETA\n') } satisfies Result<ApprovalPreview>;
      },
      'session:approve': () => ({ ok: true, value: { decision: 'edited' } }),
    });
    await waitFor(() => expect(signs()).toEqual([' alpha', '-beta', '+BETA']));
    expect(harness.sent('session:approval-preview')).toEqual([{ requestId: 'a1' }]);

    const card = screen.getByTestId('approval-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(card).getByRole('textbox'), { target: { value: JSON.stringify({ path: 'notes.txt', content: 'alpha\nGAMMA\n' }) } });
    await waitFor(() => expect(signs()).toEqual([' alpha', '-beta', '+GAMMA']));
    expect(within(card).getByText('With your edited arguments:')).toBeTruthy();
    expect(harness.sent('session:approval-preview').at(-1)).toEqual({ requestId: 'a1', args: { path: 'notes.txt', content: 'alpha\nGAMMA\n' } });
  });

  it('offers "for the rest of this request" when the engine does, and sends it', async () => {
    const harness = await showCard({ 'session:approval-preview': () => ({ ok: true, value: previewOf('alpha\nBETA\n') }), 'session:approve': () => ({ ok: true, value: { decision: 'approved' } }) });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Approve file changes for the rest of this request' })));
    expect(harness.sent('session:approve')).toEqual([{ requestId: 'a1', decision: 'approve', allowForRequest: true }]);
  });

  it('says when the call would fail as asked', async () => {
    await showCard({ 'session:approval-preview': () => ({ ok: true, value: { files: [], more: 0, problem: 'old_text was not found in notes.txt.' } }) });
    await waitFor(() => expect(screen.getByTestId('approval-diff').textContent).toBe('This call would fail as asked: old_text was not found in notes.txt.'));
  });
});
