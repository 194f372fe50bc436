import { visibleText } from './visibleText.js';

/** The CLI's own control sequences: the only ones it ever writes. */
export const ownSequences = {
  /** Back to the start of the line and clear it, to redraw the live status line. */
  clearLine: '\r\x1b[2K',
  /** Styles of a diff or of formatted Markdown on a terminal (SGR), each ended by `plain`. */
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  italic: '\x1b[3m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  cyan: '\x1b[36m',
  plain: '\x1b[m',
} as const;

export type OwnSequence = (typeof ownSequences)[keyof typeof ownSequences];

type OutputStream = NodeJS.WritableStream & { columns?: number; isTTY?: boolean };

/**
 * stdout or stderr as the CLI writes to them. All text goes through visibleText on its way out, so a
 * control character that came from the model or the folder — in a summary, a path, an error — is shown,
 * never obeyed; only `ownSequences` are written as they are. Every command writes through one of these.
 */
export class ShownStream {
  constructor(private readonly stream: OutputStream) {}

  get isTTY(): boolean {
    return Boolean(this.stream.isTTY);
  }

  /** The terminal's width; undefined when it is not a terminal (or a pseudo-terminal without a size). */
  get columns(): number | undefined {
    return this.stream.columns || undefined;
  }

  /** Text for a person; may span lines. */
  text(text: string): void {
    this.stream.write(visibleText(text));
  }

  control(sequence: OwnSequence): void {
    this.stream.write(sequence);
  }

  /** Text with the CLI's own sequences between its pieces (a coloured diff), written at once: the text visible, the sequences as they are. */
  styled(pieces: readonly (string | { sequence: OwnSequence })[]): void {
    this.stream.write(pieces.map((piece) => (typeof piece === 'string' ? visibleText(piece) : piece.sequence)).join(''));
  }
}

export const shownStdout = new ShownStream(process.stdout);
export const shownStderr = new ShownStream(process.stderr);
