import type { ApprovalCardState, QuestionCardState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { ApprovalCard } from './ApprovalCard.js';
import { PlanReviewCard } from './PlanReviewCard.js';
import { QuestionCard } from './QuestionCard.js';
import './run.css';

const noApprovals: ApprovalCardState[] = [];
const noQuestions: QuestionCardState[] = [];

/** The run's questions for the user, inline at the end of the chat: the model's questions, the plan review and one card per approval. */
export function ChatRunCards() {
  const approvals = useWorkbench((state) => state.run?.approvals ?? noApprovals);
  const questions = useWorkbench((state) => state.run?.questions ?? noQuestions);
  const planReview = useWorkbench((state) => state.run?.planReview ?? null);
  if (approvals.length === 0 && questions.length === 0 && !planReview) return null;
  return (
    <div className="run-cards">
      {questions.map((card) => (
        <QuestionCard key={card.requestId} card={card} />
      ))}
      {planReview && <PlanReviewCard key={planReview.planText} review={planReview} />}
      {approvals.map((card) => (
        <ApprovalCard key={card.requestId} card={card} />
      ))}
    </div>
  );
}
