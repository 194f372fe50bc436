import { z } from 'zod';
import { phaseSchema } from './model.js';

/**
 * How long the parts of an ask_user question may be. The question is the model's text: the tool refuses
 * longer ones (the model reads why), so a page or a terminal never has to show more than this.
 */
export const questionLimits = { question: 2_000, choices: 8, choice: 200, answer: 4_000 } as const;

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
