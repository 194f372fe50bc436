import { useId, useState, type FormEvent } from 'react';
import { questionLimits } from '../../../../engine/contract/questionLimits.js';
import type { QuestionCardState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { Countdown } from './Countdown.js';
import { useEngineAnswer } from './useEngineAnswer.js';

const settledNotes: Record<Exclude<QuestionCardState['status'], 'pending' | 'answered'>, string> = {
  'no-answer': 'No answer: the model goes on with its best assumption and says which.',
  expired: 'Nobody answered in time: the model goes on with its best assumption and says which.',
  cancelled: 'The run was cancelled before the question was answered.',
};

/**
 * A question of the model (ask_user) as a card in the chat: its choices as buttons, or an answer of the
 * user's own (Enter sends it; an empty one takes the suggested default), or no answer at all. The
 * question is the model's text: shown as plain text, never as markup.
 */
export function QuestionCard({ card }: { card: QuestionCardState }) {
  const titleId = useId();
  const answerQuestion = useWorkbench((state) => state.answerQuestion);
  const { sending, refusal, send } = useEngineAnswer();
  const [draft, setDraft] = useState('');
  const answer = (text?: string) => void send(() => answerQuestion({ requestId: card.requestId, ...(text === undefined ? {} : { answer: text }) }));
  const typed = draft.trim() || card.default;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed) answer(typed);
  };

  return (
    <article className={`run-card question-card question-${card.status}`} data-testid="question-card" data-status={card.status} aria-labelledby={titleId}>
      <header className="run-card-header">
        <h3 id={titleId}>{card.phase === 'plan' ? 'A question while planning' : 'A question before planning'}</h3>
        {card.status === 'pending' && <Countdown expiresAt={card.expiresAt} />}
      </header>
      <p className="question-text" data-testid="question-text">
        {card.question}
      </p>
      {card.status === 'pending' ? (
        <>
          {card.choices && card.choices.length > 0 && (
            <div className="run-card-actions question-choices" role="group" aria-label="Choices">
              {card.choices.map((choice) => (
                <button key={choice} type="button" className={choice === card.default ? 'button-primary' : undefined} disabled={sending} onClick={() => answer(choice)}>
                  {choice}
                </button>
              ))}
            </div>
          )}
          <form className="question-answer" onSubmit={submit}>
            <input
              type="text"
              aria-label="Your answer"
              value={draft}
              maxLength={questionLimits.answer}
              placeholder={card.default ? `Your answer (Enter for “${card.default}”)` : 'Your answer (Enter to send)'}
              disabled={sending}
              onChange={(event) => setDraft(event.target.value)}
            />
            <button type="submit" disabled={sending || !typed}>
              Answer
            </button>
            <button type="button" disabled={sending} onClick={() => answer()}>
              No answer
            </button>
          </form>
        </>
      ) : (
        <p className="question-outcome" role="status">
          {card.status === 'answered' ? (
            <>
              You answered: <strong>{card.answer}</strong>
            </>
          ) : (
            settledNotes[card.status]
          )}
        </p>
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </article>
  );
}
