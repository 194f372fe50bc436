import type { LearnedContextWindow } from '../../contract/index.js';
import { tokensText } from './windowFields.js';

/** "Context window: 32,768 tokens (from vLLM max_model_len)". */
export function contextWindowLine(window: LearnedContextWindow): string {
  return `Context window: ${tokensText(window.tokens)} tokens (from ${window.detail})`;
}
