import type { QuestionRequestView } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { messageOf } from '../commands/cliError.js';
import type { Prompter } from './prompter.js';
import { formatElapsed } from './units.js';
import { visibleLine, visibleText } from './visibleText.js';

export interface AskQuestionOptions {
  question: QuestionRequestView;
  workbench: Pick<Workbench, 'request'>;
  prompter: Prompter;
  /** Aborted when the question is settled elsewhere (expired, the run cancelled): stop asking. */
  signal: AbortSignal;
  now?: () => number;
}

/** What the user typed, as an answer: a choice by its number, their own words, the default (Enter), or no answer ("-"). */
type Typed = { answer: string | undefined } | { problem: string };

/**
 * Shows the model's question (its text neutralised: nothing in it can move the cursor or colour the
 * terminal) with its numbered choices, and asks until it is answered. No input at all (end of input)
 * gives no answer: the model goes on with its best assumption.
 */
export async function askQuestion({ question, workbench, prompter, signal, now = Date.now }: AskQuestionOptions): Promise<void> {
  prompter.print(questionLines(question, now()));
  for (;;) {
    const input = await prompter.ask(questionMenu(question), signal);
    if (signal.aborted) return;
    if (input === null) {
      prompter.print('  No answer (end of input): the model goes on with its best assumption.');
      await send(undefined);
      return;
    }
    const typed = typedAnswer(input, question);
    if ('problem' in typed) {
      prompter.print(`  ${typed.problem}`);
      continue;
    }
    if (await send(typed.answer)) return;
  }

  /** Gives the engine the answer; false (its reason printed) when it refuses it. */
  async function send(answer: string | undefined): Promise<boolean> {
    try {
      await workbench.request('session:answer-question', { requestId: question.requestId, ...(answer === undefined ? {} : { answer }) });
      return true;
    } catch (error) {
      if (signal.aborted) return true;
      prompter.print(`  ${messageOf(error)}`);
      return false;
    }
  }
}

/** The question, each of its lines indented, then its numbered choices. */
export function questionLines(question: QuestionRequestView, now: number): string {
  const expires = formatElapsed(Math.ceil((question.expiresAt - now) / 1000) * 1000);
  const text = visibleText(question.question).split('\n').map((line) => `  ${line}`);
  const choices = (question.choices ?? []).map((choice, index) => `  ${index + 1}) ${visibleLine(choice)}${choice === question.default ? '  (default)' : ''}`);
  return [`? The model asks while ${question.phase === 'plan' ? 'planning' : 'researching'} (expires in ${expires}):`, ...text, ...choices].join('\n');
}

function questionMenu(question: QuestionRequestView): string {
  const pick = question.choices?.length ? 'a number or your own answer' : 'your answer';
  const enter = question.default === undefined ? '' : `; Enter for "${visibleLine(question.default)}"`;
  return `  Type ${pick}${enter}; "-" for no answer > `;
}

function typedAnswer(input: string, question: QuestionRequestView): Typed {
  const text = input.trim();
  if (text === '-') return { answer: undefined };
  if (text === '') return question.default === undefined ? { problem: 'Type an answer, or "-" to give none.' } : { answer: question.default };
  const choices = question.choices ?? [];
  if (/^\d+$/.test(text) && choices.length > 0) {
    const choice = choices[Number(text) - 1];
    return choice === undefined ? { problem: `Choose 1 to ${choices.length}, or type your own answer.` } : { answer: choice };
  }
  return { answer: text };
}
