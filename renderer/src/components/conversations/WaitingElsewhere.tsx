import { useWorkbench } from '../../store/StoreContext.js';
import { ApprovalCard } from '../run/ApprovalCard.js';
import { PlanReviewCard } from '../run/PlanReviewCard.js';
import { QuestionCard } from '../run/QuestionCard.js';
import { useConversationTitle } from './useConversationTitle.js';

/**
 * What the run of another conversation waits for — its questions, its plan review, its approvals — shown
 * wherever the user is, under a note naming that conversation with a way to switch to it. Answered cards
 * stay until that run ends, so the answer is seen.
 */
export function WaitingElsewhere() {
  const otherRun = useWorkbench((state) => state.otherRun);
  const runningId = useWorkbench((state) => state.runningConversationId);
  const switchConversation = useWorkbench((state) => state.switchConversation);
  const title = useConversationTitle(runningId);
  if (!otherRun || runningId === null) return null;
  const { approvals, questions, planReview } = otherRun;
  if (approvals.length === 0 && questions.length === 0 && !planReview) return null;
  const waiting = [...approvals, ...questions].some((card) => card.status === 'pending') || planReview !== null;

  return (
    <section className="run-cards waiting-elsewhere" aria-labelledby="waiting-elsewhere-note" data-testid="waiting-elsewhere">
      <div className="banner banner-info waiting-elsewhere-note">
        <span id="waiting-elsewhere-note">
          {waiting ? 'The run of another conversation waits for you: ' : 'The run of another conversation: '}
          <strong data-testid="waiting-elsewhere-title">{title}</strong>
        </span>
        <button type="button" onClick={() => void switchConversation(runningId)}>
          Switch to it
        </button>
      </div>
      {questions.map((card) => (
        <QuestionCard key={card.requestId} card={card} />
      ))}
      {planReview && <PlanReviewCard key={planReview.planText} review={planReview} />}
      {approvals.map((card) => (
        <ApprovalCard key={card.requestId} card={card} />
      ))}
    </section>
  );
}
