import { PassThrough } from 'node:stream';

export type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/**
 * The chat's terminal read all the while (but for an editor's turn), what comes held for readline until
 * the prompt or a question reads: keys typed ahead are read in the mode they were typed in. Left in the
 * terminal instead, what was typed in its normal mode (while a run works, or a command is being done)
 * would be read once raw mode was back on, and the normal mode's end of input (Ctrl-D at the start of a
 * line) then comes as a NUL byte, a key that does nothing: a Ctrl-D typed a moment before the prompt was
 * lost. Read as typed, it is the end of input.
 */
export class TerminalKeys {
  /** readline's input; its own raw mode switches (on at its start, off at its close) still reach the terminal. */
  readonly stream: PassThrough & Pick<TerminalInput, 'isTTY' | 'setRawMode'>;

  /** `onEnd`: the terminal's end of input, which comes only in its normal mode. */
  constructor(
    private readonly input: TerminalInput,
    private readonly onEnd: () => void,
  ) {
    this.stream = Object.assign(new PassThrough(), { isTTY: input.isTTY, setRawMode: (mode: boolean) => this.setRawMode(mode) });
    input.on('data', this.relay);
    input.on('end', this.onEnd);
  }

  setRawMode(mode: boolean): void {
    if (this.input.isTTY && typeof this.input.setRawMode === 'function') this.input.setRawMode(mode);
  }

  /** The editor reads the terminal while it is open; what is typed after it closes is read again. */
  async handOver<T>(work: () => Promise<T>): Promise<T> {
    this.input.pause();
    try {
      return await work();
    } finally {
      if (this.input.listeners('data').includes(this.relay)) this.input.resume();
    }
  }

  /** Stops reading the terminal, for good. */
  stop(): void {
    this.input.off('data', this.relay);
    this.input.off('end', this.onEnd);
    this.input.pause();
  }

  /** Into readline's input, which holds it while readline is paused. */
  private readonly relay = (chunk: Buffer | string) => {
    this.stream.write(chunk);
  };
}
