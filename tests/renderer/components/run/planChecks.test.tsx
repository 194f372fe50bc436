// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanItem, Snapshot, UnsequencedEvent } from '../../../../engine/contract/index.js';
import { PlanChecklist } from '../../../../renderer/src/components/run/PlanChecklist.js';
import { idleSnapshot, item, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

const withCheck = (entry: PlanItem, check: string): PlanItem => ({ ...entry, description: `${entry.description} — Check: \`${check}\``, check });
const marks = () => within(screen.getByTestId('plan-checklist')).getAllByTestId('plan-check').map((mark) => [mark.dataset.check, mark.textContent]);

describe('the plan’s check marks', () => {
  it('shows each step’s check live: not run yet, failed, passed after a fix round, denied, or none', async () => {
    const harness = runViewHarness();
    await harness.render(<PlanChecklist />);
    const items = [withCheck(item(0, 'Ledger'), 'npm test -- ledger'), withCheck(item(1, 'Docs'), 'npm run lint'), item(2, 'Notes')];
    const check = (index: number, round: number, outcome: 'passed' | 'failed' | 'denied', exitCode: number | null): UnsequencedEvent => ({
      type: 'check-finished', runId, index, label: items[index]!.label, round, command: items[index]!.check!, source: 'plan', outcome, exitCode,
    });
    harness.emit({ type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 }, { type: 'plan-updated', runId, items });
    expect(marks()).toEqual([
      ['waiting', '…Check: not run yetnpm test -- ledger'],
      ['waiting', '…Check: not run yetnpm run lint'],
      ['none', 'No check'],
    ]);

    harness.emit(check(0, 0, 'failed', 1));
    expect(marks()[0]).toEqual(['failed', '✗Check failed: exited 1npm test -- ledger']);
    harness.emit(check(0, 1, 'passed', 0), check(1, 0, 'denied', null));
    expect(marks().slice(0, 2)).toEqual([
      ['passed', '✓Check passednpm test -- ledger'],
      ['denied', '–Check denied: not runnpm run lint'],
    ]);
    expect(screen.queryByTestId('final-check')).toBeNull();
  });

  it('shows a reloaded plan’s results and the folder’s check over the whole change from the snapshot, the command as text', async () => {
    const failed: PlanItem = { ...item(0, 'Build', 'failed', 'check `make` exited 2'), check: 'make', checkResult: { command: 'make', source: 'plan', outcome: 'failed', exitCode: 2 } };
    const folderChecked: PlanItem = { ...item(1, 'Docs', 'done'), checkResult: { command: '<b>npm test</b>', source: 'folder', outcome: 'passed', exitCode: 0 } };
    const snapshot: Snapshot = {
      ...idleSnapshot,
      rpi: { hasResearch: true, hasPlan: true, items: [failed, folderChecked], originalCount: 2, allDone: true, finalCheck: { command: 'npm test', source: 'folder', outcome: 'failed', exitCode: 1 } },
    };
    const harness = runViewHarness({ snapshot });
    await harness.render(<PlanChecklist />);

    expect(marks()).toEqual([
      ['failed', '✗Check failed: exited 2make'],
      ['passed', '✓Folder check passed<b>npm test</b>'],
    ]);
    expect(screen.getByText('Failed: check `make` exited 2')).toBeTruthy();
    expect(screen.getByText('<b>npm test</b>').tagName).toBe('CODE');
    const final = screen.getByTestId('final-check');
    expect([final.dataset.check, final.textContent]).toEqual(['failed', '✗Folder check over the whole change failed: exited 1npm test']);
  });
});
