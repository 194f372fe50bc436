import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** The keys the terminal's normal mode acts on itself, which the chat does for it while nobody reads. */
const keys = { interrupt: '\x03', quit: '\x1c', end: '\x04', suspend: '\x1a', killLine: '\x15', erase: ['\x7f', '\b'], newline: ['\r', '\n'] } as const;

/**
 * The chat's terminal, read in raw mode for the whole session (but for an editor's turn); what comes is
 * given to readline's input, which holds it while readline is paused.
 *
 * The terminal is never switched back to its normal mode between the prompt and a run: keys typed in
 * the normal mode and still unread when raw mode comes back would be read as raw mode gives them, and
 * the normal mode's end of input (Ctrl-D at the start of a line) then comes as a NUL byte, a key that
 * does nothing — a Ctrl-D typed as the prompt came back was lost, whenever the process was held up
 * between the two switches. So while nobody reads (a run works, a command is done) the chat does what
 * the normal mode would: it echoes what is typed; Enter ends a held line as a line feed (so it is shown
 * at the next prompt, never sent); Ctrl-C is an interrupt (SIGINT, as from the terminal, though to this
 * process alone, not its process group); Ctrl-\ quits and Ctrl-Z suspends (POSIX); Ctrl-D at the start of
 * a line is the end of input, and Ctrl-U starts the line again.
 */
export class TerminalKeys {
  /** readline's input; its own raw mode switches (on at its start, off at its close) still reach the terminal. */
  readonly stream: PassThrough & Pick<TerminalInput, 'isTTY' | 'setRawMode'>;
  /** Whether readline reads (the prompt or a question is up); otherwise what comes is held, as the normal mode would. */
  private reading = false;
  /** Keys held on the line being typed ahead: none at its start, where Ctrl-D is the end of input and an erase does nothing. */
  private onLine = 0;
  private readonly decoder = new StringDecoder('utf8');

  /** `onEnd`: the end of input. `echo`: where held keys are shown, as the terminal's normal mode shows them. */
  constructor(
    private readonly input: TerminalInput,
    private readonly echo: (text: string) => void,
    private readonly onEnd: () => void,
  ) {
    this.stream = Object.assign(new PassThrough(), { isTTY: input.isTTY, setRawMode: (mode: boolean) => this.setRawMode(mode) });
    this.setRawMode(true);
    input.on('data', this.relay);
    input.on('end', this.onEnd);
  }

  setRawMode(mode: boolean): void {
    if (this.input.isTTY && typeof this.input.setRawMode === 'function') this.input.setRawMode(mode);
  }

  /** readline reads what comes from now on (true), or it is held for it (false). */
  setReading(reading: boolean): void {
    this.reading = reading;
    if (!reading) this.onLine = 0;
  }

  /** The editor reads the terminal, in its normal mode, while it is open; what is typed after it closes is read again. */
  async handOver<T>(work: () => Promise<T>): Promise<T> {
    this.input.pause();
    this.setRawMode(false);
    try {
      return await work();
    } finally {
      if (this.input.listeners('data').includes(this.relay)) {
        this.setRawMode(true);
        this.input.resume();
      }
    }
  }

  /** Stops reading the terminal, for good. */
  stop(): void {
    this.input.off('data', this.relay);
    this.input.off('end', this.onEnd);
    this.input.pause();
  }

  private readonly relay = (chunk: Buffer | string) => {
    // Decoded whether read or held, so a character whose bytes come on both sides of a switch stays whole.
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (this.reading) {
      if (text !== '') this.stream.write(text);
      return;
    }
    for (const key of text) this.hold(key);
  };

  /** One key typed while nobody reads, done as the terminal's normal mode does it. */
  private hold(key: string): void {
    if (key === keys.interrupt) {
      this.echo('^C');
      return signal('SIGINT');
    }
    if (key === keys.quit && process.platform !== 'win32') {
      // As the terminal's quit: the process ends, the terminal in its normal mode for the shell.
      this.setRawMode(false);
      process.kill(process.pid, 'SIGQUIT');
      return;
    }
    if (key === keys.suspend && process.platform !== 'win32') return this.suspend();
    if (key === keys.killLine) {
      // The line typed so far goes (readline takes it out when it reads the key); the next starts afresh.
      this.onLine = 0;
      this.echo('^U\n');
      this.stream.write(key);
      return;
    }
    if (key === keys.end) {
      // Ctrl-D after text typed on the line hands that text over as it is; at its start it ends the input.
      if (this.onLine === 0) this.onEnd();
      return;
    }
    if ((keys.newline as readonly string[]).includes(key)) {
      this.onLine = 0;
      this.echo('\n');
      this.stream.write('\n');
      return;
    }
    if ((keys.erase as readonly string[]).includes(key)) {
      if (this.onLine === 0) return;
      this.onLine -= 1;
      this.echo('\b \b');
    } else {
      this.onLine += 1;
      this.echo(echoed(key));
    }
    this.stream.write(key);
  }

  /** Ctrl-Z: the process stops, the terminal in its normal mode for the shell; raw mode again when it goes on. */
  private suspend(): void {
    this.echo('^Z\n');
    this.setRawMode(false);
    process.once('SIGCONT', () => this.setRawMode(true));
    process.kill(process.pid, 'SIGTSTP');
  }
}

/** A control key echoed as the normal mode does (^X); C1 controls and bidi overrides not drawn; any other key as it is. */
function echoed(key: string): string {
  const code = key.codePointAt(0) ?? 0;
  if (key === '\t') return key;
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/.test(key) ? '' : key;
}

/** The signal the terminal would send the process for the key. */
function signal(name: 'SIGINT'): void {
  // Windows has no signals to send oneself: the listeners are told as a real one would tell them.
  if (process.platform === 'win32') process.emit(name, name);
  else process.kill(process.pid, name);
}
