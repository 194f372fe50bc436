import { shownStderr } from '../terminal/shownStream.js';
import { exitCodeOf, messageOf } from './cliError.js';

/** Exits once everything written to stdout and stderr has been handed to the OS, so no output is lost. */
export async function exitWith(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  // A stream already closed (see quietOnClosedPipes) calls back at once, with an error that changes nothing here.
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** Reports an error as one `rpi-workbench: <message>` line on stderr (never a stack trace) and exits with its code. */
export function failWith(error: unknown): Promise<never> {
  shownStderr.text(`rpi-workbench: ${messageOf(error)}\n`);
  return exitWith(exitCodeOf(error));
}

/**
 * A reader that stops early (`rpi-workbench history . | head -1`) closes the pipe: the rest of the output
 * is dropped quietly and the command ends as it would have (its lock released, its exit code), instead of
 * crashing on EPIPE. Any other error on stdout or stderr fails the command.
 */
export function quietOnClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') void failWith(error);
    });
  }
}

/** Wraps a command's action so that the exit code it resolves with ends the process. */
export function exiting<Args extends unknown[]>(action: (...args: Args) => Promise<number>): (...args: Args) => Promise<void> {
  return async (...args) => exitWith(await action(...args));
}
