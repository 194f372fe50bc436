import { checkOutcomeText, type EventOf } from '../../engine/contract/index.js';
import { visibleLine } from './visibleText.js';

const marks = { passed: '✓', failed: '✗', denied: '–' } as const;

/** A check's result as the run's log shows it: "  ✗ check failed: exited 1 · npm test -- ledger (step 2, after fix round 1)". */
export function formatCheckLine(event: EventOf<'check-finished'>): string {
  const target = event.index === null ? 'whole change, after the last step' : `step ${event.index + 1}`;
  const round = event.round > 0 ? `, after fix round ${event.round}` : '';
  const whose = event.source === 'folder' ? 'folder check' : 'check';
  return `  ${marks[event.outcome]} ${whose} ${checkOutcomeText(event)} · ${visibleLine(event.command)} (${target}${round})`;
}
