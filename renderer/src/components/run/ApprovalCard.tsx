import { useId, useState } from 'react';
import { ApprovalDiff } from '../changes/ApprovalDiff.js';
import type { ApprovalCardState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { ApprovalActions, type ApprovalAnswer } from './ApprovalActions.js';
import { ApprovalDetails } from './ApprovalDetails.js';
import { actionOf, answerOf } from './approvalWording.js';
import { Countdown } from './Countdown.js';
import { useEngineAnswer } from './useEngineAnswer.js';

/** One action waiting for the user (or answered, or timed out), as a card in the chat. */
export function ApprovalCard({ card }: { card: ApprovalCardState }) {
  const titleId = useId();
  const approve = useWorkbench((state) => state.approve);
  const { sending, refusal, send } = useEngineAnswer();
  const answer = (reply: ApprovalAnswer) => void send(() => approve({ requestId: card.requestId, ...reply }));
  const [draftArgs, setDraftArgs] = useState<Record<string, unknown> | undefined>(undefined);
  const details = <ApprovalDetails card={card} />;

  return (
    <article className={`run-card approval-card approval-${card.status}`} data-testid="approval-card" data-status={card.status} aria-labelledby={titleId}>
      <header className="run-card-header">
        <h3 id={titleId}>
          {actionOf(card.tool)} <code>{card.tool}</code>
        </h3>
        {card.status === 'pending' ? <Countdown expiresAt={card.expiresAt} /> : <span className="approval-answer">{card.status === 'expired' ? 'Timed out' : answerOf[card.status]}</span>}
      </header>
      {card.status === 'expired' ? <del className="approval-struck">{details}</del> : details}
      <ApprovalDiff card={card} draftArgs={draftArgs} />
      {card.status === 'expired' && <p className="approval-outcome">{answerOf.expired}</p>}
      {card.editedArgs && (
        <>
          <p className="approval-args-label">Ran with</p>
          <pre className="run-code" data-testid="approval-edited-args">
            {JSON.stringify(card.editedArgs, null, 2)}
          </pre>
        </>
      )}
      {card.status === 'pending' && <ApprovalActions card={card} busy={sending} onAnswer={answer} onDraftArgs={setDraftArgs} />}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </article>
  );
}
