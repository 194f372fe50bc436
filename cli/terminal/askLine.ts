import { createInterface, type Interface } from 'node:readline';
import { visibleText } from './visibleText.js';

export interface AskLineOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Withdraws the question (answered elsewhere, expired, run over): resolves null. */
  signal: AbortSignal;
  /** Ctrl-C typed at the question: the terminal is in raw mode, so it arrives here rather than as a signal. */
  onInterrupt: () => void;
}

/** node:readline's own key handler (its REPL replaces it too), here to see each key before readline does. */
type KeyedInterface = Interface & { _ttyWrite?: (text: string | undefined, key: { name?: string } | undefined) => void };

/**
 * One question on the terminal; the line typed, or null when the question was withdrawn or input ended.
 *
 * Only Enter typed at the question answers it. Keys typed while the run worked wait in the terminal in
 * its normal mode, which turns Enter into a line feed; they are read in the event loop's first turn after
 * the question takes the terminal, put into its line, to see, and their line feed answers nothing: "a"
 * and Enter typed a moment before an approval appears never approve what was not shown. After that a line
 * feed answers as Enter does (a script that sends "a\n" to the question). On Windows the console holds
 * typed-ahead keys as keys, so Enter typed ahead still answers there.
 */
export function askLine(question: string, { input, output, signal, onInterrupt }: AskLineOptions): Promise<string | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const rl: KeyedInterface = createInterface({ input, output, terminal: true });
    // Two turns of the event loop: a poll of the terminal comes between them, which reads what was typed ahead.
    let typedAhead = true;
    setImmediate(() => setImmediate(() => (typedAhead = false)));
    const ttyWrite = rl._ttyWrite;
    if (typeof ttyWrite === 'function') rl._ttyWrite = (text, key) => (typedAhead && key?.name === 'enter' ? undefined : ttyWrite.call(rl, text, key));
    let answered = false;
    const finish = (answer: string | null) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', withdraw);
      rl.close();
      resolve(answer);
    };
    const withdraw = () => {
      output.write('\n');
      finish(null);
    };
    signal.addEventListener('abort', withdraw, { once: true });
    rl.on('SIGINT', onInterrupt);
    rl.on('close', () => finish(null));
    rl.question(visibleText(question), (answer) => finish(answer));
  });
}
