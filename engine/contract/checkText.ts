/**
 * How a check's result reads, the same in the CLI, the summary's input and the plan's marks. Free of zod,
 * so a sandboxed page may load it.
 */
import type { CheckResult } from './model.js';

/** The counts of a plan's checks by their latest result; `none`: items no check ran for. */
export interface ChecksTally {
  passed: number;
  failed: number;
  denied: number;
  none: number;
}

/** "passed", "failed: exited 1", "failed: did not finish", "denied: not run". */
export function checkOutcomeText({ outcome, exitCode }: Pick<CheckResult, 'outcome' | 'exitCode'>): string {
  if (outcome === 'passed') return 'passed';
  if (outcome === 'denied') return 'denied: not run';
  return `failed: ${exitCode === null ? 'did not finish' : `exited ${exitCode}`}`;
}

/** The reason a failed check leaves on its item in plan.md: "check `npm test` exited 1". */
export function checkFailureReason(command: string, exitCode: number | null): string {
  return `check \`${command}\` ${exitCode === null ? 'did not finish (stopped, timed out or could not start)' : `exited ${exitCode}`}`;
}

/** The tally of items' check results, with the folder's final check counted when it ran. */
export function tallyChecks(items: readonly { checkResult?: Pick<CheckResult, 'outcome'> }[], final?: Pick<CheckResult, 'outcome'> | null): ChecksTally {
  const tally: ChecksTally = { passed: 0, failed: 0, denied: 0, none: 0 };
  for (const result of [...items.map((item) => item.checkResult), ...(final ? [final] : [])]) {
    if (result === undefined) tally.none += 1;
    else tally[result.outcome] += 1;
  }
  return tally;
}
