import type { LearnedContextWindow } from '../../contract/index.js';
import { probeJson, serverRoot, unanswered, type ProbeContext } from './probeJson.js';
import { fieldsOf, tokensIn, tokensText } from './windowFields.js';

/**
 * What Ollama runs a model at when neither its Modelfile nor OLLAMA_CONTEXT_LENGTH says: 4096 on most
 * machines (2048 before 0.6, more on 24 GiB of VRAM and up since the context became VRAM-based).
 */
const assumedDefault = 4096;

type RunsAt = { tokens: number; how: 'num_ctx' | 'loaded' | 'default' };

const howShown: Record<RunsAt['how'], string> = {
  num_ctx: 'Ollama num_ctx',
  loaded: 'Ollama loaded context',
  default: "Ollama's default context, assumed",
};

/**
 * Ollama's POST /api/show gives the model's own length as `model_info["<arch>.context_length"]` and the
 * Modelfile's `num_ctx`, if any, in the `parameters` text. Its OpenAI endpoint runs a model at that
 * num_ctx, else at the server's default (OLLAMA_CONTEXT_LENGTH), and silently drops the start of a
 * longer prompt; GET /api/ps tells the context of a loaded model (`context_length`, newer versions).
 */
export async function probeOllama(context: ProbeContext, model: string): Promise<LearnedContextWindow | 'no-answer' | 'silent'> {
  const root = serverRoot(context.baseUrl);
  const answer = await probeJson(context, { url: `${root}/api/show`, body: { model } });
  if (typeof answer === 'string') return unanswered(answer);
  const shown = fieldsOf(answer.body);
  if (!shown || !('model_info' in shown || 'parameters' in shown || 'modelfile' in shown)) return 'no-answer';
  const modelLength = modelLengthOf(fieldsOf(shown.model_info));
  const numCtx = numCtxOf(shown.parameters);
  const runsAt: RunsAt = numCtx ? { tokens: numCtx, how: 'num_ctx' } : ((await loadedContext(context, root, model)) ?? { tokens: assumedDefault, how: 'default' });
  return windowOf(model, runsAt, modelLength);
}

function windowOf(model: string, runsAt: RunsAt, modelLength: number | null): LearnedContextWindow {
  const cuts = modelLength === null || runsAt.tokens < modelLength;
  const tokens = modelLength === null ? runsAt.tokens : Math.min(runsAt.tokens, modelLength);
  const detail = modelLength !== null && cuts ? `${howShown[runsAt.how]}; the model supports ${tokensText(modelLength)}` : howShown[runsAt.how];
  if (!cuts) return { tokens, source: 'server', detail };
  const more = modelLength === null ? 'a larger value' : `up to ${tokensText(modelLength)}, what the model supports`;
  return {
    tokens,
    source: 'server',
    detail,
    serverCutsAt: runsAt.tokens,
    warning:
      `The Ollama server runs ${model} at ${tokensText(runsAt.tokens)} tokens of context and silently drops the start of longer prompts. ` +
      `To give it more, start Ollama with OLLAMA_CONTEXT_LENGTH set, or set PARAMETER num_ctx in a Modelfile, to ${more}.`,
  };
}

function modelLengthOf(info: Record<string, unknown> | null): number | null {
  const arch = info?.['general.architecture'];
  return typeof arch === 'string' ? tokensIn(info?.[`${arch}.context_length`]) : null;
}

/** `parameters` is the Modelfile's PARAMETER lines as text, e.g. "num_ctx                        8192\nstop ...". */
function numCtxOf(parameters: unknown): number | null {
  if (typeof parameters !== 'string') return null;
  const match = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  return match ? tokensIn(Number(match[1])) : null;
}

async function loadedContext(context: ProbeContext, root: string, model: string): Promise<RunsAt | null> {
  const answer = await probeJson(context, { url: `${root}/api/ps` });
  if (typeof answer === 'string') return null;
  const running = fieldsOf(answer.body)?.models;
  if (!Array.isArray(running)) return null;
  const names = new Set([model, `${model}:latest`]);
  const entry = running.map(fieldsOf).find((candidate) => names.has(String(candidate?.name)) || names.has(String(candidate?.model)));
  const tokens = tokensIn(entry?.context_length);
  return tokens ? { tokens, how: 'loaded' } : null;
}
