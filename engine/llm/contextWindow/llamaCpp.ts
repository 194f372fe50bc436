import type { LearnedContextWindow } from '../../contract/index.js';
import { probeJson, serverRoot, unanswered, type ProbeContext } from './probeJson.js';
import { fieldsOf, learnedFromServer, tokensIn } from './windowFields.js';

/** Newer llama-server lists its model with `meta.n_ctx`, the context it runs at (`-c`); older ones only `meta.n_ctx_train`. */
export function llamaCppListedWindow(entry: unknown): LearnedContextWindow | null {
  const tokens = tokensIn(fieldsOf(fieldsOf(entry)?.meta)?.n_ctx);
  return tokens ? learnedFromServer(tokens, 'llama.cpp n_ctx') : null;
}

/**
 * llama-server's GET /props (public, at the server's root, not under /v1) gives the context each slot
 * runs at as `default_generation_settings.n_ctx`; some builds put `n_ctx` at the top (tools/server/README.md).
 */
export async function probeLlamaCpp(context: ProbeContext): Promise<LearnedContextWindow | 'no-answer' | 'silent'> {
  const answer = await probeJson(context, { url: `${serverRoot(context.baseUrl)}/props` });
  if (typeof answer === 'string') return unanswered(answer);
  const props = fieldsOf(answer.body);
  const tokens = tokensIn(fieldsOf(props?.default_generation_settings)?.n_ctx) ?? tokensIn(props?.n_ctx);
  return tokens ? learnedFromServer(tokens, 'llama.cpp n_ctx') : 'no-answer';
}
