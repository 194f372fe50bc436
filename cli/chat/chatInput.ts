import { createInterface } from 'node:readline';

/** Where the chat's lines come from: the terminal (chatTerminal.ts), or stdin read line by line. */
export interface ChatInput {
  /** The next line; null when the session ends (Ctrl-D or Ctrl-C at an empty prompt, end of input, end()). */
  read(prompt: string): Promise<string | null>;
  /** Ends the session from outside (a signal): the read waiting, and every later one, gets null. */
  end(): void;
}

/**
 * Lines from stdin when it is not a terminal (a pipe, a file): one request or command per line, no
 * prompt, no line editing. A line is taken only when the one before it has been dealt with to its end.
 */
export function pipedInput(input: NodeJS.ReadableStream): ChatInput {
  const rl = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  const lines = rl[Symbol.asyncIterator]();
  let ended = false;
  let stop: (() => void) | null = null;
  return {
    async read() {
      if (ended) return null;
      const stopped = new Promise<null>((resolve) => (stop = () => resolve(null)));
      const next = await Promise.race([lines.next().then((result) => (result.done ? null : result.value)), stopped]);
      if (next === null) ended = true;
      return next;
    },
    end() {
      ended = true;
      stop?.();
      rl.close();
    },
  };
}
