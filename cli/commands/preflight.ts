import type { LearnedContextWindow } from '../../engine/contract/index.js';
import { contextWindowLine, discoverContextWindow, listModels, LlmError, shownUrl } from '../../engine/index.js';
import { CliError } from './cliError.js';
import type { ResolvedSettings } from './resolveSettings.js';

export interface PreflightOptions {
  settings: ResolvedSettings;
  warn: (message: string) => void;
  /** Where the line naming the context window goes (stderr); not shown when absent. */
  note?: (message: string) => void;
  signal: AbortSignal;
}

/**
 * Asks the model server for its models before anything starts, so an unreachable server or a refused
 * key is a configuration error (exit 2) rather than a failed run. Anything else — a server without a
 * model list, a model it does not list — is only a warning: such servers may still chat. Notes the
 * context window the run will use and where it comes from, and resolves with it.
 */
export async function preflight({ settings, warn, note, signal }: PreflightOptions): Promise<LearnedContextWindow> {
  const { baseUrl, apiKey, model, contextWindow, contextWindowFrom } = settings.llm;
  let learned: LearnedContextWindow | null = null;
  try {
    const listing = await listModels({ baseUrl, apiKey, model, signal });
    learned = listing.contextWindow;
    if (listing.modelFound === false) {
      warn(`The model server at ${shownUrl(baseUrl)} does not list a model named "${model}"; trying it anyway.`);
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    if (error.kind === 'unreachable') throw new CliError(error.message);
    if (error.kind === 'auth') throw new CliError(apiKey === null ? `${error.message} ${missingKeyHint(settings)}` : error.message);
    if (error.kind !== 'cancelled') warn(`Could not check the model server (${error.message}); trying the run anyway.`);
  }
  const configured = { configured: contextWindow, ...(contextWindowFrom ? { configuredFrom: contextWindowFrom } : {}) };
  const window = learned && !contextWindow ? learned : await discoverContextWindow({ baseUrl, apiKey, model, ...configured, signal });
  note?.(contextWindowLine(window));
  return window;
}

function missingKeyHint(settings: ResolvedSettings): string {
  return settings.keyNote ?? 'No API key was given: set OPENAI_API_KEY or pass --api-key.';
}
