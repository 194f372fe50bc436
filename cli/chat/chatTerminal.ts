import { createInterface, type Interface } from 'node:readline';
import { editInEditor } from '../terminal/editInEditor.js';
import type { LiveLine } from '../terminal/liveLine.js';
import type { Prompter } from '../terminal/prompter.js';
import { visibleLine, visibleText } from '../terminal/visibleText.js';
import type { ChatInput } from './chatInput.js';

type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** node:readline's own, used by its REPL: ends the line being typed (shown as it was) and starts an empty one below. */
type ClearableInterface = Interface & { clearLine?: () => void };

export interface ChatTerminalOptions {
  input: TerminalInput;
  output: NodeJS.WritableStream;
  /** Earlier lines for the arrow keys, newest first. */
  history: readonly string[];
}

const endHint = '(To end the session, press Ctrl-C again, or Ctrl-D, or type /exit.)';

/**
 * The chat on a terminal, through one node:readline interface for the whole session: the prompt, with
 * line editing and the session's history on the arrow keys, and the approval questions of the runs, so
 * no two readers ever share stdin.
 *
 * At the prompt the terminal is in raw mode: Ctrl-C clears a line being typed; at an empty prompt it
 * asks for a second one, which ends the session, as Ctrl-D does. While a run works, readline is paused
 * and the terminal back in its normal mode, so Ctrl-C is a real SIGINT that cancels the run (what
 * `run` does); a question during the run takes the terminal again, and Ctrl-C typed there is passed to
 * the run as its Ctrl-C.
 */
export class ChatTerminal implements ChatInput {
  private readonly rl: ClearableInterface;
  private readonly history: string[];
  /** Lines typed (or pasted) while nobody was reading. */
  private readonly typed: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private questionInterrupt: (() => void) | null = null;
  /** Ctrl-C was pressed at an empty prompt: the next one ends the session. */
  private armed = false;
  private ended = false;

  constructor(private readonly options: ChatTerminalOptions) {
    this.history = [...options.history];
    this.rl = createInterface({ input: options.input, output: options.output, terminal: true, history: this.history, historySize: 1000, removeHistoryDuplicates: true });
    this.rl.on('line', (line) => this.deliver(line));
    this.rl.on('close', () => this.end());
    this.rl.on('SIGINT', () => this.interrupt());
    options.input.on('keypress', (_text: string, key: { ctrl?: boolean; name?: string } | undefined) => {
      if (!(key?.ctrl && key.name === 'c')) this.armed = false;
    });
    this.stepAside();
  }

  read(prompt: string): Promise<string | null> {
    const line = this.typed.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.takeOver();
      this.rl.setPrompt(visibleLine(prompt));
      this.rl.prompt();
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    // The shell's prompt comes next: not on the line of ours.
    if (this.waiting) this.options.output.write('\n');
    this.rl.close();
    this.settle(null);
  }

  /**
   * Asks a question during a run; null when it is withdrawn (answered elsewhere, the run over) or input
   * ended. Its answer is not kept in the history: the arrow keys bring back requests, not "a".
   */
  question(text: string, signal: AbortSignal, onInterrupt: () => void): Promise<string | null> {
    if (this.ended || signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const finish = (answer: string | null) => {
        signal.removeEventListener('abort', withdrawn);
        this.rl.off('close', closed);
        this.questionInterrupt = null;
        this.stepAside();
        resolve(answer);
      };
      const withdrawn = () => finish(null);
      const closed = () => finish(null);
      signal.addEventListener('abort', withdrawn, { once: true });
      this.rl.once('close', closed);
      this.questionInterrupt = onInterrupt;
      this.takeOver();
      this.rl.question(visibleText(text), { signal }, (answer) => {
        if (this.history[0] === answer) this.history.shift();
        finish(answer);
      });
    });
  }

  /** The prompter a run's approvals and plan review ask through: this terminal, the status line stepping aside. */
  prompter(live: LiveLine, onInterrupt: () => void): Prompter {
    return {
      ask: (question, signal) => live.suspend(() => this.question(question, signal, onInterrupt)),
      edit: (text, fileName) => live.suspend(() => editInEditor(text, fileName)),
      print: (text) => live.log(text),
      printStyled: (lines) => live.logStyled(lines),
    };
  }

  private deliver(line: string): void {
    this.armed = false;
    if (this.waiting) this.settle(line);
    else this.typed.push(line);
  }

  private settle(line: string | null): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (!this.ended) this.stepAside();
    waiting?.(line);
  }

  private interrupt(): void {
    if (this.questionInterrupt) return this.questionInterrupt();
    if (!this.waiting) return;
    if (this.rl.line !== '' || !this.armed) {
      const typing = this.rl.line !== '';
      this.clearLine();
      if (!typing) {
        this.armed = true;
        this.options.output.write(`${endHint}\n`);
      }
      this.rl.prompt();
      return;
    }
    this.end();
  }

  /** Drops the line being typed, leaving it on the screen, and moves below it. */
  private clearLine(): void {
    if (typeof this.rl.clearLine === 'function') return this.rl.clearLine();
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
    this.options.output.write('\n');
  }

  /** Reads the keyboard in raw mode: the prompt or a question has the terminal. */
  private takeOver(): void {
    this.setRawMode(true);
    this.rl.resume();
  }

  /** Stops reading and gives the terminal its normal mode back, so Ctrl-C is a signal again (a run is working, or an editor is open). */
  private stepAside(): void {
    this.rl.pause();
    this.setRawMode(false);
  }

  private setRawMode(mode: boolean): void {
    const { input } = this.options;
    if (input.isTTY && typeof input.setRawMode === 'function') input.setRawMode(mode);
  }
}
