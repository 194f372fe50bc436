import { phaseNames, phaseSchema, type LearnedContextWindow, type Phase } from '../../engine/contract/index.js';
import { connectionFor, connectionIdentity, contextWindowLine, discoverContextWindow, listModels, LlmError, shownUrl, type ModelConnection } from '../../engine/index.js';
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
 * context window the run will use and where it comes from, and resolves with it. Each phase on a model
 * or connection of its own is checked the same way, its lines naming the phases.
 */
export async function preflight({ settings, warn, note, signal }: PreflightOptions): Promise<LearnedContextWindow> {
  const phasesOf = new Map<string, { connection: ModelConnection; phases: Phase[] }>();
  for (const phase of phaseSchema.options) {
    const connection = connectionFor(settings.llm, phase);
    const identity = connectionIdentity(connection);
    const entry = phasesOf.get(identity) ?? { connection, phases: [] };
    entry.phases.push(phase);
    phasesOf.set(identity, entry);
  }
  const several = phasesOf.size > 1;
  const mainWindow = await checkConnection(settings.llm, { settings, warn, note, signal, label: null });
  for (const { connection, phases } of phasesOf.values()) {
    if (connectionIdentity(connection) === connectionIdentity(settings.llm)) continue;
    const label = `${phases.map((phase) => phaseNames[phase]).join(', ')} on ${connection.model}`;
    await checkConnection(connection, { settings, warn, note, signal, label });
  }
  if (several) note?.(modelsLine([...phasesOf.values()]));
  return mainWindow;
}

/** "Models: Research, Implement gpt-4.1 · Plan o3 · Summary gpt-4.1-mini". */
function modelsLine(groups: readonly { connection: ModelConnection; phases: Phase[] }[]): string {
  return `Models: ${groups.map(({ connection, phases }) => `${phases.map((phase) => phaseNames[phase]).join(', ')} ${connection.model}`).join(' · ')}`;
}

async function checkConnection(
  connection: ModelConnection,
  { settings, warn, note, signal, label }: PreflightOptions & { label: string | null },
): Promise<LearnedContextWindow> {
  const { baseUrl, apiKey, model, contextWindow, contextWindowFrom } = connection;
  const named = (message: string) => (label ? `${label}: ${message}` : message);
  let learned: LearnedContextWindow | null = null;
  try {
    const listing = await listModels({ baseUrl, apiKey, model, signal });
    learned = listing.contextWindow;
    if (listing.modelFound === false) {
      warn(named(`The model server at ${shownUrl(baseUrl)} does not list a model named "${model}"; trying it anyway.`));
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    if (error.kind === 'unreachable') throw new CliError(named(error.message));
    if (error.kind === 'auth') throw new CliError(named(apiKey === null ? `${error.message} ${missingKeyHint(settings, label)}` : error.message));
    if (error.kind !== 'cancelled') warn(named(`Could not check the model server (${error.message}); trying the run anyway.`));
  }
  const configured = { configured: contextWindow, ...(contextWindowFrom ? { configuredFrom: contextWindowFrom } : {}) };
  const window = learned && !contextWindow ? learned : await discoverContextWindow({ baseUrl, apiKey, model, ...configured, signal });
  note?.(named(contextWindowLine(window)));
  return window;
}

function missingKeyHint(settings: ResolvedSettings, label: string | null): string {
  if (label !== null) return 'This connection has no API key: type it in the desktop app\'s Settings → Models.';
  return settings.keyNote ?? 'No API key was given: set OPENAI_API_KEY or pass --api-key.';
}
