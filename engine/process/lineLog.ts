import { StringDecoder } from 'node:string_decoder';

export interface LineLogOptions {
  readonly log: (line: string) => void;
  /** Lines passed on at most; the first one over gets a single notice instead, the rest nothing. */
  readonly maxLines: number;
  /** Longer lines are cut to this many characters and end in '…'. */
  readonly maxLineChars: number;
}

interface StreamState {
  readonly decoder: StringDecoder;
  pending: string;
}

/**
 * Passes a command's output to a progress log line by line, as it arrives. Each stream keeps its own
 * unfinished line, so stdout and stderr never mix inside a line; the budget keeps a command that floods
 * its output from flooding the host.
 */
export class LineLog {
  private readonly streams = new Map<string, StreamState>();
  private linesLeft: number;

  constructor(private readonly options: LineLogOptions) {
    this.linesLeft = options.maxLines;
  }

  write(stream: string, chunk: Buffer): void {
    const state = this.stateOf(stream);
    const pieces = state.decoder.write(chunk).split('\n');
    const unfinished = pieces.pop() ?? '';
    for (const piece of pieces) {
      this.emit(state.pending + piece);
      state.pending = '';
    }
    state.pending = (state.pending + unfinished).slice(0, this.options.maxLineChars + 1);
  }

  /** Passes on the last line of each stream when it did not end in a newline. */
  end(): void {
    for (const state of this.streams.values()) {
      const rest = state.pending + state.decoder.end();
      state.pending = '';
      if (rest !== '') this.emit(rest);
    }
  }

  private stateOf(stream: string): StreamState {
    let state = this.streams.get(stream);
    if (!state) {
      state = { decoder: new StringDecoder('utf8'), pending: '' };
      this.streams.set(stream, state);
    }
    return state;
  }

  private emit(raw: string): void {
    if (this.linesLeft < 0) return;
    this.linesLeft -= 1;
    if (this.linesLeft < 0) {
      this.options.log(`… more than ${this.options.maxLines} lines of output; the rest is not shown here`);
      return;
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    this.options.log(line.length > this.options.maxLineChars ? `${line.slice(0, this.options.maxLineChars)}…` : line);
  }
}
