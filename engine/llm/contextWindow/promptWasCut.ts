export interface PromptCutCheck {
  /** The prompt's size in tokens as the client estimated it before sending. */
  sentEstimate: number;
  /** `usage.prompt_tokens` of the response. */
  reportedPromptTokens: number;
  /** The window the server runs the model at. */
  contextWindow: number;
}

/**
 * True when the server evidently cut the prompt to fit its window instead of refusing it (Ollama does):
 * the prompt sent was larger than the window and the server counted less than half of it. Estimates
 * are rough, so a count merely lower than the estimate, or a prompt that fitted, never says "cut".
 */
export function promptWasCut({ sentEstimate, reportedPromptTokens, contextWindow }: PromptCutCheck): boolean {
  return reportedPromptTokens > 0 && sentEstimate > contextWindow && reportedPromptTokens < sentEstimate / 2;
}
