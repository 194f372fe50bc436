import { z } from 'zod';
import {
  approvalSettingsSchema,
  phaseNames,
  promptCachingSchema,
  toolModeSchema,
  userPriceSchema,
  type ApprovalSettings,
  type Phase,
  type PhaseModelPatch,
  type PublicSettings,
  type UserPrice,
} from '../contract/index.js';
import type { LlmSettings, ModelConnection } from '../llm/llmTypes.js';
import { hostEnvironment } from '../secrets/processCredentials.js';
import { JsonConfigFile } from './jsonConfigFile.js';
import type { KeyCipher } from './keyCipher.js';
import { patchedPhaseModels, phaseModelsView, resolvePhaseModels, storedConnection, storedPhaseModelsSchema } from './phaseModelSettings.js';

export const defaultBaseUrl = 'https://api.openai.com/v1';
/** Retries of a failed model call (retryPolicy.ts): with backoffs of 1, 2, 4 and 8 s, about 15 s of a server's trouble is ridden out. */
export const defaultRetries = 4;

/**
 * What the settings dialog saved whether or not it was typed, before the window could be automatic: read
 * as automatic, so files from then learn the window from the server too.
 */
const formerDefaultWindow = 128_000;

const storedSettingsSchema = z.object({
  baseUrl: z.string().default(defaultBaseUrl),
  model: z.string().default(''),
  /** null: automatic, learned from the server before each run. */
  contextWindow: z
    .number()
    .int()
    .positive()
    .nullable()
    .default(null)
    .transform((tokens) => (tokens === formerDefaultWindow ? null : tokens)),
  toolMode: toolModeSchema.default('auto'),
  retries: z.number().int().min(0).max(10).default(defaultRetries),
  promptCaching: promptCachingSchema.default('auto'),
  /** The user's price, for the model it was saved with: another model is priced as if none were set. */
  price: userPriceSchema.extend({ model: z.string() }).nullable().default(null),
  /** base64 of the cipher's output; never the key itself. */
  apiKeyEncrypted: z.string().optional(),
  /** The base URL the key was saved for, the only one it is sent to; absent in older files, where it is `baseUrl`. */
  apiKeyBaseUrl: z.string().optional(),
  approvals: approvalSettingsSchema.partial().default({}),
  /** The phases with a model of their own (phaseModelSettings.ts); absent ones run on the model above. */
  models: storedPhaseModelsSchema,
});

export const defaultApprovalSettings: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };
type StoredSettings = z.infer<typeof storedSettingsSchema>;

export interface SettingsPatch {
  baseUrl?: string;
  model?: string;
  /** null: automatic. */
  contextWindow?: number | null;
  toolMode?: PublicSettings['toolMode'];
  retries?: number;
  promptCaching?: PublicSettings['promptCaching'];
  /** The price of the model (the patch's, else the saved one), or null to forget it. */
  price?: UserPrice | null;
  /** A new key to store encrypted, or null to forget the stored one. */
  apiKey?: string | null;
  approvals?: Partial<ApprovalSettings>;
  /** The phases whose model changes. */
  models?: Partial<Record<Phase, PhaseModelPatch>>;
}

export interface SettingsStoreOptions {
  configDir: string;
  cipher: KeyCipher;
  env?: Readonly<Record<string, string | undefined>>;
}

/** The user's model settings in `<configDir>/settings.json`, with the API key encrypted by the host's cipher. */
export class SettingsStore {
  private readonly file: JsonConfigFile<StoredSettings>;
  private readonly cipher: KeyCipher;
  private readonly env: Readonly<Record<string, string | undefined>>;

  constructor(options: SettingsStoreOptions) {
    this.file = new JsonConfigFile(options.configDir, 'settings.json', storedSettingsSchema, () => storedSettingsSchema.parse({}));
    this.cipher = options.cipher;
    this.env = options.env ?? hostEnvironment();
  }

  async get(): Promise<PublicSettings> {
    return this.toPublic(await this.file.read());
  }

  async update(patch: SettingsPatch): Promise<PublicSettings> {
    const current = await this.file.read();
    const { apiKey, approvals, price, models, ...plain } = patch;
    const next: StoredSettings = {
      ...current,
      ...(current.apiKeyEncrypted ? { apiKeyBaseUrl: keyBaseUrlOf(current) } : {}),
      ...definedOnly(plain),
      approvals: { ...current.approvals, ...definedOnly(approvals ?? {}) },
      models: models ? patchedPhaseModels(current.models, models, this.cipher) : current.models,
    };
    if (price !== undefined) next.price = price === null ? null : { ...price, model: next.model };
    if (apiKey === null) {
      delete next.apiKeyEncrypted;
      delete next.apiKeyBaseUrl;
    } else if (apiKey !== undefined) {
      const available = this.cipher.availability();
      if (!available.ok) throw new Error(available.reason);
      next.apiKeyEncrypted = this.cipher.encrypt(apiKey).toString('base64');
      next.apiKeyBaseUrl = next.baseUrl;
    }
    await this.file.write(next);
    return this.toPublic(next);
  }

  /**
   * The key to send to the model server at `baseUrl`: the environment's OPENAI_API_KEY first (meant for
   * the base URL saved in settings, as a run uses it), then the stored one (bound to the base URL it was
   * saved for). A key is never sent anywhere else: asked for another server, this throws a sentence
   * asking for the key to be typed again. Null when there is no key at all.
   */
  async apiKeyFor(baseUrl: string): Promise<string | null> {
    const stored = await this.file.read();
    const fromEnv = this.env.OPENAI_API_KEY?.trim();
    if (fromEnv) {
      if (!sameBaseUrl(stored.baseUrl, baseUrl)) {
        throw new Error(
          `The API key in OPENAI_API_KEY goes only to the saved base URL, ${stored.baseUrl}, not to ${baseUrl}: type the key to use it with this server, or save this base URL first.`,
        );
      }
      return fromEnv;
    }
    if (!stored.apiKeyEncrypted) return null;
    const savedFor = keyBaseUrlOf(stored);
    if (!sameBaseUrl(savedFor, baseUrl)) {
      throw new Error(`The stored API key was saved for ${savedFor}, and is not sent to ${baseUrl}: type the key again to use it with this server.`);
    }
    return this.cipher.decrypt(Buffer.from(stored.apiKeyEncrypted, 'base64'));
  }

  /** What a run needs to reach the model of each phase, the keys decrypted; read afresh before each run. */
  async llmSettings(): Promise<LlmSettings> {
    const stored = await this.file.read();
    const apiKey = await this.apiKeyFor(stored.baseUrl);
    const main: ModelConnection = { baseUrl: stored.baseUrl, apiKey, model: stored.model, contextWindow: stored.contextWindow, price: priceOf(stored) };
    const phaseModels = await this.phaseModelsFor(main);
    return {
      ...main,
      toolMode: stored.toolMode,
      retries: stored.retries,
      promptCaching: stored.promptCaching,
      ...(Object.keys(phaseModels).length > 0 ? { phaseModels } : {}),
    };
  }

  /**
   * The phases Settings gives a model of their own, resolved against the default connection `main`
   * (another model on the same server goes there with its key); a connection's key is decrypted and sent
   * only to the base URL it was saved for. Throws when a key cannot be decrypted here.
   */
  async phaseModelsFor(main: ModelConnection): Promise<Partial<Record<Phase, ModelConnection>>> {
    const stored = await this.file.read();
    return resolvePhaseModels({ stored: stored.models, main, sameBaseUrl, decrypt: (encrypted) => this.cipher.decrypt(Buffer.from(encrypted, 'base64')) });
  }

  /**
   * For Test connection of a phase's own connection: its saved base URL (when the form names none) and its
   * stored key, sent only to the base URL the key was saved for; null key when the phase has none stored.
   */
  async phaseConnectionFor(phase: Phase, baseUrl: string | undefined): Promise<{ baseUrl: string; model: string | null; apiKey: string | null }> {
    const saved = storedConnection((await this.file.read()).models, phase);
    const target = baseUrl ?? saved?.baseUrl;
    if (target === undefined) throw new Error(`${phaseNames[phase]} has no connection of its own: type its base URL to test it.`);
    if (!saved?.apiKeyEncrypted) return { baseUrl: target, model: saved?.model ?? null, apiKey: null };
    const savedFor = saved.apiKeyBaseUrl ?? saved.baseUrl;
    if (!sameBaseUrl(savedFor, target)) {
      throw new Error(`The stored API key of this connection was saved for ${savedFor}, and is not sent to ${target}: type the key again to test this server.`);
    }
    return { baseUrl: target, model: saved.model, apiKey: this.cipher.decrypt(Buffer.from(saved.apiKeyEncrypted, 'base64')) };
  }

  /** The approval policies, timeout and plan review switch, defaults filled in. */
  async approvalSettings(): Promise<ApprovalSettings> {
    return { ...defaultApprovalSettings, ...(await this.file.read()).approvals };
  }

  private toPublic(stored: StoredSettings): PublicSettings {
    const source = this.env.OPENAI_API_KEY?.trim() ? 'environment' : stored.apiKeyEncrypted ? 'stored' : 'none';
    return {
      baseUrl: stored.baseUrl,
      model: stored.model,
      contextWindow: stored.contextWindow,
      toolMode: stored.toolMode,
      retries: stored.retries,
      promptCaching: stored.promptCaching,
      price: priceOf(stored),
      apiKeySet: source !== 'none',
      apiKeySource: source,
      models: phaseModelsView(stored.models),
      approvals: { ...defaultApprovalSettings, ...stored.approvals },
    };
  }
}

/** The saved price when it was saved for the saved model. */
function priceOf(stored: StoredSettings): UserPrice | null {
  if (stored.price === null || stored.price.model !== stored.model) return null;
  const { model: _model, ...price } = stored.price;
  return price;
}

function keyBaseUrlOf(stored: StoredSettings): string {
  return stored.apiKeyBaseUrl ?? stored.baseUrl;
}

/** Same server for a key: equal once parsed, a trailing slash aside. */
export function sameBaseUrl(a: string, b: string): boolean {
  return normalised(a) === normalised(b);
}

function normalised(baseUrl: string): string {
  const trimmed = baseUrl.trim();
  try {
    return new URL(trimmed).href.replace(/\/+$/, '');
  } catch {
    return trimmed.replace(/\/+$/, '');
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
