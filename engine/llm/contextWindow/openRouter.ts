import type { LearnedContextWindow } from '../../contract/index.js';
import { fieldsOf, learnedFromServer, tokensIn } from './windowFields.js';

/**
 * OpenRouter lists each model with `context_length`, and its top provider's under
 * `top_provider.context_length` (GET /api/v1/models). It routes a request to a provider that can take
 * its size, so the model's own length is the one to use; the top provider's stands in when it is missing.
 */
export function openRouterWindow(entry: unknown): LearnedContextWindow | null {
  const fields = fieldsOf(entry);
  const own = tokensIn(fields?.context_length);
  if (own) return learnedFromServer(own, 'OpenRouter context_length');
  const top = tokensIn(fieldsOf(fields?.top_provider)?.context_length);
  return top ? learnedFromServer(top, 'OpenRouter top_provider.context_length') : null;
}
