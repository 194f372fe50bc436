import { z } from 'zod';
import { phaseSchema } from './model.js';

export { questionLimits } from './questionLimits.js';

/** A question from the model (ask_user, in Research or Plan) waiting for the user's answer, as `question-asked` announces it. */
export const questionRequestSchema = z.object({
  requestId: z.string(),
  phase: phaseSchema,
  question: z.string(),
  /** Answers the model offers; the user may still write another. */
  choices: z.array(z.string()).optional(),
  /** The answer the model suggests when the user has no preference. */
  default: z.string().optional(),
  expiresAt: z.number(),
});
export type QuestionRequestView = z.infer<typeof questionRequestSchema>;

/**
 * How a question was settled: the user answered; the user (or a host where nobody can answer: --yes, no
 * terminal) chose to give no answer; nobody answered before it expired; the run was cancelled.
 */
export const questionOutcomeSchema = z.enum(['answered', 'no-answer', 'expired', 'cancelled']);
export type QuestionOutcome = z.infer<typeof questionOutcomeSchema>;

/** How a question was settled, with the user's answer when they gave one. */
export type QuestionReply = { outcome: 'answered'; answer: string } | { outcome: Exclude<QuestionOutcome, 'answered'> };
