import { z } from 'zod';
import { questionLimits, type QuestionReply } from '../contract/index.js';
import { maskStrings } from '../secrets/secretMask.js';
import { ToolError, defineTool, type UserQuestion } from './tool.js';

const questionText = z.string().trim().min(1).max(questionLimits.question);
const choiceText = z.string().trim().min(1).max(questionLimits.choice);

export const askUser = defineTool({
  name: 'ask_user',
  description:
    'Ask the user one question when the request leaves a choice open that the folder cannot settle (which of two meanings, ' +
    'a format, a scope) and a wrong guess would waste the work. Do not ask what you can find out by reading. Offer the likely ' +
    'answers as choices and say which you would pick as the default. Returns the user\'s answer, or "No answer" when nobody ' +
    'answered: then go on with your best assumption and state it in your findings.',
  parameters: z.object({
    question: questionText.describe('One clear question, with the context the user needs to answer it.'),
    choices: z.array(choiceText).max(questionLimits.choices).optional().describe('Short answers the user can pick from; they may still write another.'),
    default: choiceText.optional().describe('The answer you would assume if the user has no preference.'),
  }),
  mutates: false,
  async run(args, context) {
    const question: UserQuestion = maskStrings(args, context.maskSecrets);
    if (!context.askUser) return { text: replyText({ outcome: 'no-answer' }, question) };
    return { text: await context.askUser(question, context.signal) };
  },
});

/** What the model reads for a settled question; a cancelled run ends the call instead. */
export function replyText(reply: QuestionReply, question: Pick<UserQuestion, 'default'>): string {
  const suggested = question.default === undefined ? '' : ` You suggested "${question.default}" as the default.`;
  switch (reply.outcome) {
    case 'answered':
      return `The user answered: ${reply.answer}`;
    case 'no-answer':
      return `No answer: proceed with your best assumption and state it.${suggested}`;
    case 'expired':
      return `No answer (nobody answered before the question expired): proceed with your best assumption and state it.${suggested}`;
    case 'cancelled':
      throw new ToolError('The run was cancelled while the question waited for an answer.');
  }
}
