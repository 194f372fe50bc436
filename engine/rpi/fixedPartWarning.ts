import { phaseNames, type Phase } from '../contract/index.js';
import { fixedPartShare } from '../context/contextBudget.js';

export interface FixedPartSize {
  phase: Phase;
  /** The fixed part of the phase's requests, by the engine's count. */
  tokens: number;
  /** What one request may fill. */
  budget: number;
  /** The window the budget was taken from. */
  contextWindow: number;
}


/**
 * The warning for a fixed part that takes more than half of the budget, naming the setting that fixes a
 * window set too small (or assumed: a server that does not say gets 8,192); null when it leaves room.
 */
export function fixedPartWarning({ phase, tokens, budget, contextWindow }: FixedPartSize): string | null {
  if (tokens <= budget * fixedPartShare) return null;
  const count = (value: number) => value.toLocaleString('en-US');
  const share = Math.round((tokens / budget) * 100);
  return (
    `The fixed part of each ${phaseNames[phase]} request (system prompt, tools, plan, file map, project instructions) takes about ${count(tokens)} tokens, ` +
    `${share}% of the ${count(budget)} a request may fill in a context window of ${count(contextWindow)} tokens, so little room is left for the work ` +
    "and older results are set aside on most turns. If the model's window is larger, set it in Settings → Context window (on the command line: --context-window <tokens>)."
  );
}
