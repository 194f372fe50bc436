import type { ApprovalCardState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { ApprovalCard } from './ApprovalCard.js';
import { PlanReviewCard } from './PlanReviewCard.js';
import './run.css';

const noApprovals: ApprovalCardState[] = [];

/** The run's questions for the user, inline at the end of the chat: the plan review and one card per approval. */
export function ChatRunCards() {
  const approvals = useWorkbench((state) => state.run?.approvals ?? noApprovals);
  const planReview = useWorkbench((state) => state.run?.planReview ?? null);
  if (approvals.length === 0 && !planReview) return null;
  return (
    <div className="run-cards">
      {planReview && <PlanReviewCard key={planReview.planText} review={planReview} />}
      {approvals.map((card) => (
        <ApprovalCard key={card.requestId} card={card} />
      ))}
    </div>
  );
}
