/**
 * How much of the model's context window one request may fill. The rest is room for the answer, and a
 * margin because the engine counts with the o200k tokenizer while the server counts with the model's own
 * (for code they can differ by a tenth or more).
 */

/** Room kept free for the answer and the counting margin: a quarter of the window… */
const reserveShare = 0.25;
/** …but never less than this many tokens (an answer that calls a tool with a small file needs about that)… */
const minReserve = 1024;
/** …nor more than this: a million-token window does not need a quarter-million-token answer. */
const maxReserve = 65_536;

/**
 * When a request would not fit, older results are set aside until it fills no more than this share of
 * the budget: one large step, so the stubs stay put (and the prompt prefix the provider caches stays
 * identical) for the many turns that follow, instead of a small trim on every turn.
 */
export const lowWaterShare = 0.5;

/**
 * Past this share of the budget, the fixed part of a loop's requests (system prompt, tools, the phase's
 * own messages: plan, file map, instructions), which every request carries, leaves too little room for
 * the work: older results are set aside on almost every turn.
 */
export const fixedPartShare = 0.5;

/** After the server refuses a request as too long without naming its window, the budget shrinks to this share. */
const refusedShare = 0.7;

/** The most one request may carry for a window of `contextWindow` tokens. */
export function budgetFor(contextWindow: number): number {
  const reserve = Math.min(maxReserve, Math.max(minReserve, Math.ceil(contextWindow * reserveShare)));
  // A window too small for the reserve still gets half of itself, so the error comes from the server.
  return Math.max(Math.floor(contextWindow / 2), contextWindow - reserve);
}

/**
 * The budget after the server said a request was too long: the budget of the window it named when that is
 * smaller, else a clear cut below the current one (our count and the server's differ).
 */
export function shrunkBudget(current: number, serverLimit: number | undefined): number {
  const named = serverLimit === undefined ? Infinity : budgetFor(serverLimit);
  return Math.max(1, Math.min(named, Math.floor(current * refusedShare)));
}
