import type { PlanDecision, PlanItem, PlanReviewView, UnsequencedEvent } from '../contract/index.js';
import { parsePlan, withoutCheck } from '../rpi/planFile.js';
import { ApprovalAnswerError } from './approvalBroker.js';
import { riskOfPlanItem } from './riskyPlanItems.js';

interface Waiting {
  view: PlanReviewView;
  settle: (decision: PlanDecision | { decision: 'cancelled' }) => void;
}

/**
 * The plan review gate: after Plan, the run waits here until the user approves the plan, approves an
 * edited plan (which must parse to at least one item), or rejects it. Cancelling the run ends the wait.
 */
export class PlanGate {
  private waiting: Waiting | null = null;

  constructor(private readonly emit: (event: UnsequencedEvent) => void) {}

  review(runId: string, items: readonly PlanItem[], planText: string, signal: AbortSignal): Promise<PlanDecision | { decision: 'cancelled' }> {
    if (signal.aborted) return Promise.resolve({ decision: 'cancelled' });
    const riskyItems = items.flatMap((item) => {
      const reasons = [
        ...(item.check ? [`when done it runs its check \`${item.check}\`, a command the model wrote`] : []),
        riskOfPlanItem(`${item.label} ${withoutCheck(item.description)}`) ?? [],
      ].flat();
      return reasons.length === 0 ? [] : [{ index: item.index, reason: reasons.join('; ') }];
    });
    const view: PlanReviewView = { items: [...items], riskyItems, planText };
    return new Promise((resolve) => {
      const onAbort = () => settle({ decision: 'cancelled' });
      const settle = (decision: PlanDecision | { decision: 'cancelled' }) => {
        if (this.waiting?.view !== view) return;
        this.waiting = null;
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      this.waiting = { view, settle };
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({ type: 'plan-ready', runId, ...view });
    });
  }

  /** Answers the waiting review; throws ApprovalAnswerError when none waits or an edited plan has no items. */
  answer(decision: PlanDecision): void {
    if (!this.waiting) throw new ApprovalAnswerError('No plan is waiting for review.');
    if (decision.decision === 'edit' && parsePlan(decision.plan).items.length === 0) {
      throw new ApprovalAnswerError('The edited plan has no items: each item is a line like "- [ ] 1. Label — what to do".');
    }
    this.waiting.settle(decision);
  }

  /** The plan waiting for review, as `plan-ready` announced it, or null. */
  pending(): PlanReviewView | null {
    return this.waiting?.view ?? null;
  }
}
