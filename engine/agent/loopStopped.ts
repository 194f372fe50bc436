import { LlmError } from '../llm/llmTypes.js';

/**
 * Checked before each step of a loop (a model call, a tool call): once the loop's own signal fired, by the
 * user's cancel or its time limit, the loop ends there, and its failure says which of the two it was.
 */
export function throwIfStopped(signal: AbortSignal): void {
  if (signal.aborted) throw new LlmError('cancelled', 'The run was cancelled.');
}
