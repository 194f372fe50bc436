import type { Prompter } from '../../cli/terminal/prompter.js';

/** What a scripted person does at one question: type a line, or wait (until the question is withdrawn). */
export type ScriptedAnswer = string | { wait: true };

/**
 * A Prompter that answers from a script, for driving the interactive approvals and plan review without a
 * terminal: `answers` are typed in order, `edits` turn the editor's text into what the person saves.
 * Running out of answers counts as input ended (null).
 */
export function scriptedPrompter(answers: ScriptedAnswer[], edits: ((text: string) => string)[] = []) {
  const printed: string[] = [];
  const asked: string[] = [];
  const edited: string[] = [];
  const prompter: Prompter = {
    ask: (question, signal) => {
      asked.push(question);
      const next = answers.shift();
      if (next === undefined) return Promise.resolve(null);
      if (typeof next === 'string') return Promise.resolve(next);
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
    },
    edit: async (text) => {
      edited.push(text);
      const edit = edits.shift();
      if (!edit) throw new Error('The editor exited with code 1; nothing was changed.');
      return edit(text);
    },
    print: (text) => void printed.push(text),
  };
  return { prompter, printed, asked, edited, output: () => printed.join('\n') };
}
