import type { PlanReviewView } from '../../engine/contract/index.js';
import { visibleLine } from './visibleText.js';

/** The plan as it waits for review, with the items that name a risky action flagged and why. */
export function planForReview(view: PlanReviewView): string {
  const risky = view.riskyItems.map((risk) => {
    const item = view.items[risk.index];
    return `  ⚠ Step ${risk.index + 1}${item ? ` (${visibleLine(item.label)})` : ''}: ${visibleLine(risk.reason)}`;
  });
  return [
    '── The plan is ready for review ──',
    view.planText.trimEnd(),
    ...(risky.length > 0 ? ['', 'Look closely at:', ...risky] : []),
    '──',
  ].join('\n');
}

export const planMenu = '  [a]pprove  [e]dit in $EDITOR  [r]eject  [v]iew again > ';
