import { randomUUID } from 'node:crypto';
import { questionLimits, type Phase, type QuestionOutcome, type QuestionReply, type QuestionRequestView, type UnsequencedEvent } from '../contract/index.js';
import { ApprovalAnswerError } from './approvalBroker.js';
import { WaitingAnswers } from './waitingAnswers.js';

/** A question of the model, its secrets already masked. */
export interface AskedQuestion {
  runId: string;
  phase: Phase;
  question: string;
  choices?: readonly string[];
  default?: string;
}

/**
 * The questions the model asks the user (ask_user). Each waits like an approval — on the same broker
 * machinery, with the approvals' timeout — and is settled once: answered, given no answer (the model goes
 * on with its best assumption), expired, or withdrawn when the run is cancelled.
 */
export class QuestionBroker {
  private readonly waiting = new WaitingAnswers<QuestionRequestView & { runId: string }, QuestionReply>();

  constructor(private readonly emit: (event: UnsequencedEvent) => void) {}

  ask(question: AskedQuestion, timeoutMs: number, signal: AbortSignal): Promise<QuestionReply> {
    if (signal.aborted) return Promise.resolve({ outcome: 'cancelled' });
    const { runId, ...asked } = question;
    const view: QuestionRequestView = {
      requestId: `question-${randomUUID()}`,
      phase: asked.phase,
      question: asked.question,
      ...(asked.choices?.length ? { choices: [...asked.choices] } : {}),
      ...(asked.default === undefined ? {} : { default: asked.default }),
      expiresAt: Date.now() + timeoutMs,
    };
    const { requestId } = view;
    return this.waiting.wait(requestId, { ...view, runId }, {
      timeoutMs,
      signal,
      expired: { outcome: 'expired' },
      withdrawn: { outcome: 'cancelled' },
      announce: () => this.emit({ type: 'question-asked', runId, ...view }),
      settled: (reply) => this.emit({ type: 'question-answered', runId, requestId, ...reply }),
    });
  }

  /** Answers a waiting question (no answer when `answer` is absent); throws ApprovalAnswerError when none waits under this id. */
  answer(requestId: string, answer: string | undefined): 'answered' | 'no-answer' {
    const reply: QuestionReply = answer === undefined ? { outcome: 'no-answer' } : { outcome: 'answered', answer: checkedAnswer(answer) };
    if (this.waiting.settle(requestId, reply)) return reply.outcome as 'answered' | 'no-answer';
    const earlier = this.waiting.earlier(requestId)?.outcome;
    throw new ApprovalAnswerError(earlier ? `This question was already settled (${settledWording[earlier]}); it cannot be answered again.` : `There is no question "${requestId}".`);
  }

  /** The questions waiting now, as `question-asked` announced them. */
  pending(): QuestionRequestView[] {
    return this.waiting.entries().map(({ runId: _, ...view }) => view);
  }
}

/** The answer without surrounding blanks; an empty or overlong one is refused (in process, the contract's schema is not applied). */
function checkedAnswer(answer: string): string {
  const trimmed = answer.trim();
  if (!trimmed) throw new ApprovalAnswerError('The answer is empty: write one, or give no answer to let the model go on with its best assumption.');
  if (trimmed.length > questionLimits.answer) throw new ApprovalAnswerError(`The answer is ${trimmed.length} characters long; at most ${questionLimits.answer} are taken.`);
  return trimmed;
}

const settledWording: Record<QuestionOutcome, string> = {
  answered: 'answered',
  'no-answer': 'left without an answer',
  expired: 'nobody answered in time',
  cancelled: 'the run was cancelled',
};
