import { checkOutcomeText } from '../../../../engine/contract/checkText.js';
import type { CheckResult } from '../../../../engine/contract/index.js';

type CheckState = CheckResult['outcome'] | 'waiting' | 'none';

const marks: Record<CheckState, string> = { passed: '✓', failed: '✗', denied: '–', waiting: '…', none: '' };

/**
 * A check's mark under a plan step (or under the plan, for the folder's check over the whole change):
 * passed, failed, denied, not run yet (the step names a check), or none. The command is shown as text.
 */
export function CheckMark({ result, command, whole = false }: { result: CheckResult | undefined; command?: string | undefined; whole?: boolean }) {
  const state: CheckState = result?.outcome ?? (command ? 'waiting' : 'none');
  const shown = result?.command ?? command;
  const what = whole ? 'Folder check over the whole change' : result?.source === 'folder' ? 'Folder check' : 'Check';
  const text = result ? `${what} ${checkOutcomeText(result)}` : command ? `${what}: not run yet` : 'No check';
  return (
    <span className={`plan-check plan-check-${state}`} data-check={state} data-testid={whole ? 'final-check' : 'plan-check'}>
      {marks[state] && (
        <span className="plan-check-mark" aria-hidden="true">
          {marks[state]}
        </span>
      )}
      <span>{text}</span>
      {shown && <code className="plan-check-command">{shown}</code>}
    </span>
  );
}
