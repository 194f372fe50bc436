import { checkOutcomeText } from '../contract/checkText.js';
import type { CheckResult, PlanItem } from '../contract/index.js';

/** One line per check that ran, for the summary: "2. Add ledger: `npm test -- ledger` (the plan's check) passed". */
export function describeChecks(items: readonly PlanItem[], finalCheck: CheckResult | undefined): string[] {
  const lines = items.flatMap((item) => (item.checkResult ? [`${item.number}. ${item.label}: ${checkLine(item.checkResult)}`] : []));
  return finalCheck ? [...lines, `Whole change, after the last item: ${checkLine(finalCheck)}`] : lines;
}

function checkLine(result: CheckResult): string {
  const whose = result.source === 'plan' ? 'the plan’s check' : 'the folder’s check command';
  return `\`${result.command}\` (${whose}) ${checkOutcomeText(result)}`;
}
