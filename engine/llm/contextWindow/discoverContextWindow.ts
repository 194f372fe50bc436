import type { LearnedContextWindow } from '../../contract/index.js';
import { catalogContextWindow } from '../prices/modelCatalog.js';
import { llamaCppListedWindow, probeLlamaCpp } from './llamaCpp.js';
import { probeLmStudio } from './lmStudio.js';
import { probeOllama } from './ollama.js';
import { openRouterWindow } from './openRouter.js';
import { probeJson, type ProbeContext } from './probeJson.js';
import { fieldsOf, tokensText } from './windowFields.js';
import { vllmWindow } from './vllm.js';

/** For a server that does not say and a model the catalog does not know: small enough to fit almost any server. */
export const defaultContextWindow = 8192;

export interface DiscoverContextWindowOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** The window set in Settings (or by a host's flag); null or absent for automatic. */
  configured?: number | null;
  /** Where the set window comes from: "Settings" when absent. */
  configuredFrom?: string;
  /** The entries of GET /models when the caller has them already (listModels), so they are not asked twice. */
  listing?: readonly unknown[];
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Each request's limit, 3 s by default; once one runs out the server is asked nothing more. */
  timeoutMs?: number;
}

type NativeProbe = (context: ProbeContext, model: string) => Promise<LearnedContextWindow | 'no-answer' | 'silent'>;

const nativeProbes: Record<'ollama' | 'lmStudio' | 'llamaCpp', NativeProbe> = {
  ollama: probeOllama,
  lmStudio: probeLmStudio,
  llamaCpp: (context) => probeLlamaCpp(context),
};

/**
 * The model's context window: the one set in Settings (or by a host's flag); else what the server says
 * (its model list, then Ollama's, LM Studio's or llama.cpp's own API); else the model catalog's figure
 * (modelCatalog.ts); else 8,192. Never throws: a probe that fails is skipped, and a server that does not
 * answer is not asked again.
 */
export async function discoverContextWindow(options: DiscoverContextWindowOptions): Promise<LearnedContextWindow> {
  if (options.configured) return { tokens: options.configured, source: 'settings', detail: options.configuredFrom ?? 'Settings' };
  const fromServer = await askServer(options);
  if (fromServer && fromServer !== 'web-page') return fromServer;
  const known = await catalogContextWindow({ model: options.model, baseUrl: options.baseUrl });
  if (known) return { tokens: known.tokens, source: 'table', detail: `the model catalog (${known.entry})` };
  const why =
    fromServer === 'web-page'
      ? 'the server answered GET /models with a web page (HTML), not a model list; check the base URL'
      : 'the server does not say, and the model is not a known one';
  return { tokens: defaultContextWindow, source: 'default', detail: `the default of ${tokensText(defaultContextWindow)}: ${why}` };
}

/** What the server says of the model's window; null when it does not, 'web-page' when a web page stands where its model list should be. */
async function askServer(options: DiscoverContextWindowOptions): Promise<LearnedContextWindow | 'web-page' | null> {
  const model = options.model.trim();
  if (!model) return null;
  const context: ProbeContext = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? 3000,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const listing = options.listing ?? (await listingOf(context));
  if (listing === 'silent') return null;
  // The server's own APIs sit beside its model list, so behind the same web server: not asked.
  if (listing === 'web-page') return 'web-page';
  const entry = listing.find((candidate) => fieldsOf(candidate)?.id === model);
  const listed = entry === undefined ? null : (vllmWindow(entry) ?? openRouterWindow(entry) ?? llamaCppListedWindow(entry));
  if (listed) return listed;
  for (const probe of probeOrder(listing)) {
    const answer = await nativeProbes[probe](context, model);
    if (answer === 'silent') return null;
    if (answer !== 'no-answer') return answer;
  }
  return null;
}

async function listingOf(context: ProbeContext): Promise<readonly unknown[] | 'silent' | 'web-page'> {
  const answer = await probeJson(context, { url: `${context.baseUrl.trim().replace(/\/+$/, '')}/models` });
  if (answer === 'silent' || answer === 'web-page') return answer;
  if (answer === 'no-answer') return [];
  const data = fieldsOf(answer.body)?.data;
  return Array.isArray(data) ? data : [];
}

/** The listing's `owned_by` names the server often enough to ask it first: "llamacpp", LM Studio's "organization_owner". */
function probeOrder(listing: readonly unknown[]): (keyof typeof nativeProbes)[] {
  const owners = new Set(listing.map((entry) => fieldsOf(entry)?.owned_by));
  if (owners.has('llamacpp')) return ['llamaCpp', 'ollama', 'lmStudio'];
  if (owners.has('organization_owner')) return ['lmStudio', 'ollama', 'llamaCpp'];
  return ['ollama', 'lmStudio', 'llamaCpp'];
}
