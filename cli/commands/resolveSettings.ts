import { phaseNames, type ApprovalSettings, type Phase, type PhaseModelsView } from '../../engine/contract/index.js';
import { noKeyStorage, sameServerModel, SettingsStore, type LlmSettings, type ModelConnection } from '../../engine/index.js';
import { CliError } from './cliError.js';
import { isHttpUrl, phaseModelFlags, type RunFlags } from './runFlags.js';

/** Why the CLI cannot use a key the desktop app stored: it is encrypted with the OS keychain through Electron. */
const storedKeyNote =
  'The API key stored by the desktop app is encrypted with its OS keychain access, which the command line does not have: set OPENAI_API_KEY or pass --api-key.';

export interface ResolvedSettings {
  llm: LlmSettings;
  approvals: ApprovalSettings;
  /** Why no key is used although Settings holds one; null when that is not the case. */
  keyNote: string | null;
}

export interface ResolveSettingsOptions {
  flags: RunFlags;
  env: Readonly<Record<string, string | undefined>>;
  configDir: string;
}

/**
 * Each setting from its flag, then the environment (OPENAI_BASE_URL, OPENAI_API_KEY, RPI_MODEL), then
 * the user's config file. The approval policies and the price come from the config file only;
 * --review-plan turns the plan review on.
 */
export async function resolveSettings({ flags, env, configDir }: ResolveSettingsOptions): Promise<ResolvedSettings> {
  const store = new SettingsStore({ configDir, cipher: noKeyStorage(storedKeyNote), env: {} });
  // One after the other: a config file that is not valid is moved aside by the first read.
  const stored = await store.get();
  const approvals = await store.approvalSettings();
  const fromEnv = (name: string) => env[name]?.trim() || undefined;
  const baseUrl = flags.baseUrl ?? checkedUrl(fromEnv('OPENAI_BASE_URL'), 'OPENAI_BASE_URL') ?? stored.baseUrl;
  const key = await resolveKey(store, baseUrl, flags.apiKey?.trim() || fromEnv('OPENAI_API_KEY'));
  const model = flags.model?.trim() || fromEnv('RPI_MODEL') || stored.model;
  const main: ModelConnection = {
    baseUrl,
    apiKey: key.apiKey,
    model,
    contextWindow: flags.contextWindow ?? stored.contextWindow,
    ...(flags.contextWindow === undefined ? {} : { contextWindowFrom: '--context-window' }),
    // The price in Settings is the saved model's: another model is priced from the catalog.
    price: model === stored.model ? stored.price : null,
  };
  const phaseModels = await resolvePhaseModels(store, main, flags);
  return {
    llm: {
      ...main,
      toolMode: flags.toolMode ?? stored.toolMode,
      retries: flags.retries ?? stored.retries,
      promptCaching: flags.promptCaching ?? stored.promptCaching,
      ...(Object.keys(phaseModels).length > 0 ? { phaseModels } : {}),
    },
    approvals: flags.reviewPlan ? { ...approvals, reviewPlan: true } : approvals,
    keyNote: key.note,
  };
}

/**
 * The phases on a model of their own: a phase's flag puts it on that model of the same server; else, unless
 * --model names one model for all, the model Settings gives it. A connection whose key the desktop app
 * stored cannot be used here (its keychain is not reachable), which stops the command saying what to pass.
 */
async function resolvePhaseModels(store: SettingsStore, main: ModelConnection, flags: RunFlags): Promise<Partial<Record<Phase, ModelConnection>>> {
  const fromFlags = Object.entries(phaseModelFlags(flags)).map(([phase, model]) => [phase, sameServerModel(main, model)] as const);
  let fromSettings: Partial<Record<Phase, ModelConnection>> = {};
  if (flags.model === undefined) {
    try {
      fromSettings = await store.phaseModelsFor(main);
    } catch (error) {
      throw new CliError(phaseKeyProblem(error, (await store.get()).models));
    }
  }
  return { ...fromSettings, ...Object.fromEntries(fromFlags) };
}

function phaseKeyProblem(error: unknown, models: PhaseModelsView): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message !== storedKeyNote) return `${message} Or pass --model to use one model for every phase.`;
  const phases = (Object.keys(models) as Phase[]).filter((phase) => {
    const choice = models[phase];
    return choice.use === 'connection' && choice.apiKeySet;
  });
  const names = phases.map((phase) => phaseNames[phase]).join(', ');
  const flagsText = phases.map((phase) => `--${phase}-model <name>`).join(', ');
  return (
    `Settings give ${names} a connection of its own whose key the desktop app stored encrypted with its OS keychain, which the command line cannot read: ` +
    `pass ${flagsText} to use a model of the main server instead, or --model to use one model for every phase.`
  );
}

/** The flag's or the environment's key, else the stored one, which this host cannot decrypt. */
async function resolveKey(store: SettingsStore, baseUrl: string, given: string | undefined): Promise<{ apiKey: string | null; note: string | null }> {
  if (given) return { apiKey: given, note: null };
  try {
    return { apiKey: await store.apiKeyFor(baseUrl), note: null };
  } catch {
    return { apiKey: null, note: storedKeyNote };
  }
}

function checkedUrl(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isHttpUrl(value)) {
    throw new CliError(`${name} is not an http:// or https:// URL: fix it, or pass --base-url.`);
  }
  return value;
}

/** Refuses to start without a model name, saying the three places one can come from. */
export function requireModel(settings: ResolvedSettings): void {
  if (settings.llm.model.trim() === '') {
    throw new CliError('No model is configured: pass --model, set RPI_MODEL, or choose a model in the desktop app\'s Settings.');
  }
}
