import { RunRefusedError } from '../../engine/contract/index.js';
import { FolderError, FolderLockedError, LlmError } from '../../engine/index.js';

/**
 * The command's exit codes. 0: the run is done; 1: it failed or was cancelled (and is resumable);
 * 2: nothing was started, because of a usage or configuration error; 130: a second Ctrl-C stopped it at once.
 */
export const exitCodes = { done: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** An error the command reports as one line, with its exit code (usage or configuration by default). */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.usage,
  ) {
    super(message);
  }
}

/**
 * Refusals that mean nothing was started — the folder cannot be opened or is busy, the engine refused
 * (no model, nothing to resume, unknown message), the model server check failed — exit 2; anything
 * else is an unexpected failure, exit 1.
 */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof FolderError || error instanceof FolderLockedError || error instanceof RunRefusedError || error instanceof LlmError) {
    return exitCodes.usage;
  }
  return exitCodes.failed;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
