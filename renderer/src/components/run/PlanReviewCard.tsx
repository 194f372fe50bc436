import { useId, useState } from 'react';
import type { PlanReviewView, RequestPayload } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { PlanEditor } from './PlanEditor.js';
import { PlanReviewItems } from './PlanReviewItems.js';
import { useEngineAnswer } from './useEngineAnswer.js';

type Decision = RequestPayload<'session:review-plan'>;

const sentNotes: Record<Decision['decision'], string> = {
  approve: 'Plan approved. The run goes on with the first step.',
  edit: 'Edited plan approved. The run goes on with its first step.',
  reject: 'Plan rejected. The run stops; resume it to review the plan again.',
};

/** The plan review gate: approve the plan, approve an edited plan, or reject it. */
export function PlanReviewCard({ review }: { review: PlanReviewView }) {
  const titleId = useId();
  const reviewPlan = useWorkbench((state) => state.reviewPlan);
  const { sending, refusal, send } = useEngineAnswer();
  const [editing, setEditing] = useState(false);
  const [sent, setSent] = useState<Decision['decision'] | null>(null);
  const risky = review.riskyItems.length;

  const decide = async (decision: Decision) => {
    if (await send(() => reviewPlan(decision))) setSent(decision.decision);
  };

  const actions = editing ? (
    <PlanEditor initial={review.planText} busy={sending} onApprove={(plan) => void decide({ decision: 'edit', plan })} onCancel={() => setEditing(false)} />
  ) : (
    <div className="run-card-actions">
      <button type="button" className="button-primary" disabled={sending} onClick={() => void decide({ decision: 'approve' })}>
        Approve plan
      </button>
      <button type="button" disabled={sending} onClick={() => setEditing(true)}>
        Edit plan
      </button>
      <button type="button" disabled={sending} onClick={() => void decide({ decision: 'reject' })}>
        Reject plan
      </button>
    </div>
  );

  return (
    <article className="run-card plan-review-card" data-testid="plan-review-card" aria-labelledby={titleId}>
      <header className="run-card-header">
        <h3 id={titleId}>Review the plan</h3>
        <span className="muted">{review.items.length === 1 ? '1 step' : `${review.items.length} steps`}</span>
      </header>
      <p className="muted">No file is changed until you approve. Edit the plan to change, add or remove steps.</p>
      {risky > 0 && <p className="run-card-warning">{risky === 1 ? '1 step looks risky: check it before approving.' : `${risky} steps look risky: check them before approving.`}</p>}
      <PlanReviewItems review={review} />
      {sent ? (
        <p className="plan-review-sent" role="status">
          {sentNotes[sent]}
        </p>
      ) : (
        actions
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </article>
  );
}
