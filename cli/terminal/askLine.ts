import { createInterface } from 'node:readline';
import { visibleText } from './visibleText.js';

export interface AskLineOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Withdraws the question (answered elsewhere, expired, run over): resolves null. */
  signal: AbortSignal;
  /** Ctrl-C typed at the question: the terminal is in raw mode, so it arrives here rather than as a signal. */
  onInterrupt: () => void;
}

/** One question on the terminal; the line typed, or null when the question was withdrawn or input ended. */
export function askLine(question: string, { input, output, signal, onInterrupt }: AskLineOptions): Promise<string | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: true });
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
