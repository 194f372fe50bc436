import { useId } from 'react';
import type { StepUsage } from '../../../../engine/contract/index.js';
import { stepUsageText, usageTotalOf, usageTotalText } from '../../../../engine/contract/runUsage.js';
import { phaseNames } from '../../store/runStatus.js';
import { useWorkbench } from '../../store/StoreContext.js';

/**
 * What the current request's model calls used, per step — Research, Plan, each plan item, Summary — with
 * tokens in (of which cached), out and cost, then the request's total. A resumed run's earlier calls count.
 */
export function RunSpend() {
  const titleId = useId();
  const usage = useWorkbench((state) => state.runUsage);
  if (!usage || usage.steps.length === 0) return null;
  return (
    <section className="run-section" aria-labelledby={titleId} data-testid="run-spend">
      <h3 id={titleId} className="run-section-title">
        Spend
      </h3>
      <dl className="run-spend">
        {usage.steps.map((step) => (
          <div key={step.item ? `item-${step.item.index}` : step.phase} className="run-spend-row" data-testid="step-spend" data-step={step.item ? `item-${step.item.index}` : step.phase}>
            <dt className="run-spend-step">{stepName(step)}</dt>
            <dd className="run-spend-figures">{stepUsageText(step)}</dd>
          </div>
        ))}
        {usage.steps.length > 1 && (
          <div className="run-spend-row run-spend-total" data-testid="run-spend-total">
            <dt className="run-spend-step">Total</dt>
            <dd className="run-spend-figures">{usageTotalText(usageTotalOf(usage.steps))}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/** "Research", "Step 2: Write workbook", "Summary". */
function stepName(step: StepUsage): string {
  return step.item ? `Step ${step.item.index + 1}: ${step.item.label}` : phaseNames[step.phase];
}
