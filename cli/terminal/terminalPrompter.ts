import { askLine } from './askLine.js';
import { editInEditor } from './editInEditor.js';
import type { LiveLine } from './liveLine.js';
import type { Prompter } from './prompter.js';

/** Questions on stderr, answers from stdin, the editor on the terminal; the status line steps aside for each. */
export function terminalPrompter(live: LiveLine, onInterrupt: () => void): Prompter {
  return {
    ask: (question, signal) => live.suspend(() => askLine(question, { input: process.stdin, output: process.stderr, signal, onInterrupt })),
    edit: (text, fileName) => live.suspend(() => editInEditor(text, fileName)),
    print: (text) => live.log(text),
    printStyled: (lines) => live.logStyled(lines),
  };
}
