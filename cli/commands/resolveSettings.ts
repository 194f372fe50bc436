import type { ApprovalSettings } from '../../engine/contract/index.js';
import { noKeyStorage, SettingsStore, type LlmSettings } from '../../engine/index.js';
import { CliError } from './cliError.js';
import { isHttpUrl, type RunFlags } from './runFlags.js';

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
  return {
    llm: {
      baseUrl,
      apiKey: key.apiKey,
      model,
      contextWindow: flags.contextWindow ?? stored.contextWindow,
      ...(flags.contextWindow === undefined ? {} : { contextWindowFrom: '--context-window' }),
      toolMode: flags.toolMode ?? stored.toolMode,
      retries: flags.retries ?? stored.retries,
      promptCaching: flags.promptCaching ?? stored.promptCaching,
      // The price in Settings is the saved model's: another model is priced from the catalog.
      price: model === stored.model ? stored.price : null,
    },
    approvals: flags.reviewPlan ? { ...approvals, reviewPlan: true } : approvals,
    keyNote: key.note,
  };
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
