/**
 * Money over several steps (or requests): the sum of those with a price, and how many had none. A step
 * without a price is never counted as free: the total then reads as a floor, "≥ $0.031, 1 step unpriced".
 */
export interface CostTotal {
  /** US dollars of the priced steps; null when none had a price. */
  costUsd: number | null;
  unpricedSteps: number;
}

/** The total of each step's cost in US dollars, null for a step with no known price. */
export function costTotalOf(costs: readonly (number | null)[]): CostTotal {
  const priced = costs.filter((cost): cost is number => cost !== null);
  return {
    costUsd: priced.length === 0 ? null : priced.reduce((sum, cost) => sum + cost, 0),
    unpricedSteps: costs.length - priced.length,
  };
}

/** Totals added: a run's steps, a resumed run's earlier part. */
export function addCostTotals(totals: readonly CostTotal[]): CostTotal {
  const priced = totals.filter((total) => total.costUsd !== null);
  return {
    costUsd: priced.length === 0 ? null : priced.reduce((sum, total) => sum + (total.costUsd ?? 0), 0),
    unpricedSteps: totals.reduce((sum, total) => sum + total.unpricedSteps, 0),
  };
}

/**
 * "$0.031"; "≥ $0.031, 1 step unpriced" when some step had no price; null when none had one (the
 * surface then shows tokens only, never a made-up figure). `unit` names what was unpriced: the steps of a
 * request, or the model calls of one step ("≥ $0.004, 2 calls unpriced").
 */
export function costTotalText(total: CostTotal, unit: 'step' | 'call' = 'step'): string | null {
  if (total.costUsd === null) return null;
  const amount = dollarsText(total.costUsd);
  if (total.unpricedSteps === 0) return amount;
  return `≥ ${amount}, ${total.unpricedSteps} ${unit}${total.unpricedSteps === 1 ? '' : 's'} unpriced`;
}

/** "$0.031" below a dollar (three decimals), "$1.24" from a dollar on, "<$0.001" for a sliver, "$0" for nothing. */
export function dollarsText(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.001) return '<$0.001';
  // Below a dollar by less than half a tenth of a cent would read "$1.000".
  if (usd < 0.9995) return `$${usd.toFixed(3)}`;
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
