import { createInterface, type Interface } from 'node:readline';
import { editInEditor } from '../terminal/editInEditor.js';
import type { LiveLine } from '../terminal/liveLine.js';
import type { Prompter } from '../terminal/prompter.js';
import { visibleLine, visibleText } from '../terminal/visibleText.js';
import type { ChatInput } from './chatInput.js';
import { TerminalKeys, type TerminalInput } from './terminalKeys.js';

/** A key as node:readline reads it: paste-start and paste-end are the marks of a bracketed paste. */
interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * node:readline's own, used by its REPL: `clearLine` ends the line being typed (shown as it was) and
 * starts an empty one below; `_ttyWrite` handles each key (the REPL replaces it, as this does, to read
 * keys its own way); `_refreshLine` redraws the prompt with the line.
 */
type EditableInterface = Interface & {
  clearLine?: () => void;
  _ttyWrite?: (text: string | undefined, key: Key | undefined) => void;
  _refreshLine?: () => void;
  line: string;
  cursor: number;
};

/** xterm's bracketed paste: the terminal marks pasted text, so a paste is text to edit, never lines that each run. */
const bracketedPaste = { on: '\x1b[?2004h', off: '\x1b[?2004l' } as const;

export interface ChatTerminalOptions {
  input: TerminalInput;
  output: NodeJS.WritableStream;
  /** Earlier lines for the arrow keys, newest first. */
  history: readonly string[];
}

const typedHint = '(Typed ahead, and not run: press Enter to send it as one request, or edit it; Ctrl-C drops it.)';

/**
 * The chat on a terminal, through one node:readline interface for the whole session: the prompt, with
 * line editing and the session's history on the arrow keys, and the approval questions of the runs, so
 * no two readers ever share stdin.
 *
 * The terminal is in raw mode for the whole session (terminalKeys.ts says why). At the prompt Ctrl-C
 * clears a line being typed; at an empty prompt it asks for a second one, which ends the session, as
 * Ctrl-D does. While a run works readline is paused, and what is typed is held for the next prompt or
 * question as the terminal's normal mode would hold it: echoed, its Enter a line feed; Ctrl-C is a
 * SIGINT that cancels the run (what `run` does); Ctrl-D at the start of a line is the end of input,
 * which ends the session (once the run is over; a question it asks meets the end of input, and an
 * approval is denied) as Ctrl-D at the prompt does. A question during the run takes the keys again, and
 * Ctrl-C typed there is passed to the run as its Ctrl-C.
 *
 * Nothing runs that was not seen at the prompt: only Enter at the prompt (a carriage return) sends the
 * line. A paste (bracketed paste, on while the prompt or a question reads) is put into the line, its
 * newlines kept, as one request to edit and send; so is a line feed, which is Ctrl-J, or Enter typed
 * ahead while a run worked (held as a line feed); lines that came in together with the one sent are put
 * into the next prompt instead of running one after the other.
 */
export class ChatTerminal implements ChatInput {
  private readonly rl: EditableInterface;
  private readonly keys: TerminalKeys;
  private readonly history: string[];
  /** Lines ended while nobody was reading (they came in with the one sent): the next prompt shows them, to edit and send. */
  private readonly typed: string[] = [];
  /** The text of the paste coming in, between its marks; null when no paste is. */
  private pasted: string | null = null;
  /** The name of the key before this one: a carriage return and a line feed together are one newline. */
  private previousKey: string | undefined;
  /** The prompt or a question has the terminal: what is put into the line is drawn at once. */
  private reading = false;
  private readonly marksPastes: boolean;
  private waiting: ((line: string | null) => void) | null = null;
  private questionInterrupt: (() => void) | null = null;
  private ended = false;

  constructor(private readonly options: ChatTerminalOptions) {
    this.history = [...options.history];
    this.keys = new TerminalKeys(options.input, (text) => options.output.write(text), () => this.end());
    this.rl = createInterface({ input: this.keys.stream, output: options.output, terminal: true, history: this.history, historySize: 1000, removeHistoryDuplicates: true }) as EditableInterface;
    this.readKeys();
    this.marksPastes = Boolean(options.input.isTTY);
    if (this.marksPastes) {
      options.output.write(bracketedPaste.on);
      // Every way out: a process.exit (a second Ctrl-C during a run) or a crash as well as end().
      process.on('exit', this.stopMarkingPastes);
    }
    this.rl.on('line', (line) => this.deliver(line));
    this.rl.on('close', () => this.end());
    this.rl.on('SIGINT', () => this.interrupt());
    this.stepAside();
  }

  read(prompt: string): Promise<string | null> {
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.takeOver();
      this.rl.setPrompt(visibleLine(prompt));
      const typed = this.typed.splice(0);
      if (typed.length > 0) {
        this.options.output.write(`${typedHint}\n`);
        this.rl.line = [...typed, ...(this.rl.line === '' ? [] : [this.rl.line])].join('\n');
      }
      this.rl.cursor = this.rl.line.length;
      this.rl.prompt(true);
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.stopMarkingPastes();
    // The shell's prompt comes next: not on the line of ours.
    if (this.waiting) this.options.output.write('\n');
    this.keys.stop();
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
      edit: (text, fileName) => live.suspend(() => this.keys.handOver(() => editInEditor(text, fileName))),
      print: (text) => live.log(text),
      printStyled: (lines) => live.logStyled(lines),
    };
  }

  /**
   * Asks a yes/no question outside a run (Ctrl-C at it is no); true only for y or yes. The line typed at
   * the prompt, if any, waits for the next prompt.
   */
  async confirm(text: string): Promise<boolean> {
    const controller = new AbortController();
    const answer = await this.question(text, controller.signal, () => controller.abort());
    return answer !== null && /^\s*y(?:es)?\s*$/i.test(answer);
  }

  /** Bracketed paste off, as the terminal was: once, at the end or on the way out of the process. */
  private readonly stopMarkingPastes = () => {
    if (!this.marksPastes) return;
    process.off('exit', this.stopMarkingPastes);
    this.options.output.write(bracketedPaste.off);
  };

  /** Every key goes through here first: pastes and line feeds are put into the line; the other keys are readline's. */
  private readKeys(): void {
    const ttyWrite = this.rl._ttyWrite;
    if (typeof ttyWrite !== 'function') return;
    this.rl._ttyWrite = (text, key) => {
      const previous = this.previousKey;
      this.previousKey = key?.name;
      if (key?.name === 'paste-start') {
        this.pasted ??= '';
        return;
      }
      if (this.pasted !== null) {
        if (key?.name !== 'paste-end') {
          this.pasted += pastedText(text, key, previous);
          return;
        }
        const pasted = this.pasted;
        this.pasted = null;
        return this.insert(pasted);
      }
      if (key?.name === 'enter' && !key.ctrl && !key.meta) {
        if (previous !== 'return') this.insert('\n');
        return;
      }
      ttyWrite.call(this.rl, text, key);
    };
  }

  /** Puts text into the line being edited at the cursor, drawn at once when the prompt or a question is up. */
  private insert(text: string): void {
    if (text === '') return;
    const { line, cursor } = this.rl;
    this.rl.line = line.slice(0, cursor) + text + line.slice(cursor);
    this.rl.cursor = cursor + text.length;
    if (this.reading) this.rl._refreshLine?.();
  }

  private deliver(line: string): void {
    if (this.waiting) this.settle(line);
    else this.typed.push(line);
  }

  private settle(line: string | null): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (!this.ended) this.stepAside();
    waiting?.(line);
  }

  /** Ctrl-C at the prompt: drops the line being typed; at an empty prompt it ends the session, as Ctrl-D does. */
  private interrupt(): void {
    if (this.questionInterrupt) return this.questionInterrupt();
    if (!this.waiting) return;
    if (this.rl.line === '') return this.end();
    this.clearLine();
    this.rl.prompt();
  }

  /** Drops the line being typed, leaving it on the screen, and moves below it. */
  private clearLine(): void {
    if (typeof this.rl.clearLine === 'function') return this.rl.clearLine();
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
    this.options.output.write('\n');
  }

  /** readline takes the keys: the prompt or a question has the terminal. */
  private takeOver(): void {
    this.reading = true;
    // Again each time: an editor opened during a run may have turned it off on its way out.
    if (this.marksPastes) this.options.output.write(bracketedPaste.on);
    this.keys.setReading(true);
    this.rl.resume();
  }

  /** readline stops taking keys: what comes is held for it, and Ctrl-C is a signal again (a run is working, or a command is done). */
  private stepAside(): void {
    this.reading = false;
    // Held keys are lines typed ahead: a paste then is plain lines, shown at the next prompt.
    if (this.marksPastes) this.options.output.write(bracketedPaste.off);
    this.rl.pause();
    this.keys.setReading(false);
  }

}

/** What a key of a paste puts into the line: its text, a newline for a line break (CR LF being one), nothing for a control key. */
function pastedText(text: string | undefined, key: Key | undefined, previous: string | undefined): string {
  if (key?.name === 'return') return '\n';
  if (key?.name === 'enter') return previous === 'return' ? '' : '\n';
  if (key?.name === 'tab') return '\t';
  // eslint-disable-next-line no-control-regex -- a pasted control character (C0, C1, bidi override) is dropped, never obeyed
  if (text === undefined || key?.ctrl || key?.meta || /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return '';
  return text;
}
