import type { LearnedContextWindow } from '../../contract/index.js';
import { probeJson, serverRoot, unanswered, type ProbeContext } from './probeJson.js';
import { fieldsOf, learnedFromServer, tokensIn, tokensText } from './windowFields.js';

/**
 * LM Studio's own REST API, GET /api/v0/models/{model}: `loaded_context_length` is the context the
 * loaded model runs at, `max_context_length` the model's own (lmstudio-ai/docs, REST API v0). A model
 * not loaded yet has only the latter; it loads on the first request, with the context set in LM Studio.
 */
export async function probeLmStudio(context: ProbeContext, model: string): Promise<LearnedContextWindow | 'no-answer' | 'silent'> {
  const path = model.split('/').map(encodeURIComponent).join('/');
  const answer = await probeJson(context, { url: `${serverRoot(context.baseUrl)}/api/v0/models/${path}` });
  if (typeof answer === 'string') return unanswered(answer);
  const info = fieldsOf(answer.body);
  const loaded = tokensIn(info?.loaded_context_length);
  const max = tokensIn(info?.max_context_length);
  if (loaded) return learnedFromServer(loaded, max && max > loaded ? `LM Studio loaded_context_length; the model supports ${tokensText(max)}` : 'LM Studio loaded_context_length');
  return max ? learnedFromServer(max, 'LM Studio max_context_length; the model is not loaded yet') : 'no-answer';
}
