/** The terminal as the interactive approvals and the plan review use it; tests pass a scripted one. */
export interface Prompter {
  /** Asks a question; null when there is no answer (the question was withdrawn, or input ended). */
  ask(question: string, signal: AbortSignal): Promise<string | null>;
  /** Opens `text` in the user's editor as a file named `fileName`; resolves with what they saved. */
  edit(text: string, fileName: string): Promise<string>;
  /** Prints lines for the user. */
  print(text: string): void;
}
