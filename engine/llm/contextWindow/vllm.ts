import type { LearnedContextWindow } from '../../contract/index.js';
import { fieldsOf, learnedFromServer, tokensIn } from './windowFields.js';

/**
 * vLLM lists each model with `max_model_len`, the window it was started with (`--max-model-len`, else
 * the model's own); ModelCard in vllm/entrypoints/openai/protocol.py.
 */
export function vllmWindow(entry: unknown): LearnedContextWindow | null {
  const tokens = tokensIn(fieldsOf(entry)?.max_model_len);
  return tokens ? learnedFromServer(tokens, 'vLLM max_model_len') : null;
}
