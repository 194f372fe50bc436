import type { StyledLine } from './diffText.js';

/** The terminal as the interactive approvals and the plan review use it; tests pass a scripted one. */
export interface Prompter {
  /** Asks a question; null when there is no answer (the question was withdrawn, or input ended). */
  ask(question: string, signal: AbortSignal): Promise<string | null>;
  /** Opens `text` in the user's editor as a file named `fileName`; resolves with what they saved. */
  edit(text: string, fileName: string): Promise<string>;
  /** Prints lines for the user. */
  print(text: string): void;
  /** Prints lines with colours (a diff) where the terminal shows them; `print` of their text otherwise. */
  printStyled?(lines: readonly StyledLine[]): void;
}
