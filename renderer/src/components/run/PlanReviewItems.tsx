import type { PlanReviewView } from '../../../../engine/contract/index.js';

/** The plan's steps as the review gate shows them, risky ones flagged with why. */
export function PlanReviewItems({ review }: { review: PlanReviewView }) {
  const risks = new Map(review.riskyItems.map((risky) => [risky.index, risky.reason]));
  return (
    <ol className="plan-review-items">
      {review.items.map((item) => {
        const risk = risks.get(item.index);
        return (
          <li key={item.index} data-risky={risk !== undefined} className={risk === undefined ? undefined : 'plan-review-risky'}>
            <span className="plan-item-label">
              {item.number}. {item.label}
            </span>
            {item.description && <span className="muted"> — {item.description}</span>}
            {risk !== undefined && (
              <span className="plan-review-risk">
                <span aria-hidden="true">⚠ </span>Risky: {risk}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
