import { z } from 'zod';
import { approvalSettingsSchema, toolModeSchema, type ApprovalSettings, type PublicSettings } from '../contract/index.js';
import type { LlmSettings } from '../llm/llmTypes.js';
import { JsonConfigFile } from './jsonConfigFile.js';
import type { KeyCipher } from './keyCipher.js';

export const defaultBaseUrl = 'https://api.openai.com/v1';

const storedSettingsSchema = z.object({
  baseUrl: z.string().default(defaultBaseUrl),
  model: z.string().default(''),
  contextWindow: z.number().int().positive().default(128_000),
  toolMode: toolModeSchema.default('auto'),
  /** base64 of the cipher's output; never the key itself. */
  apiKeyEncrypted: z.string().optional(),
  approvals: approvalSettingsSchema.partial().default({}),
});

export const defaultApprovalSettings: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };
type StoredSettings = z.infer<typeof storedSettingsSchema>;

export interface SettingsPatch {
  baseUrl?: string;
  model?: string;
  contextWindow?: number;
  toolMode?: PublicSettings['toolMode'];
  /** A new key to store encrypted, or null to forget the stored one. */
  apiKey?: string | null;
  approvals?: Partial<ApprovalSettings>;
}

export interface SettingsStoreOptions {
  configDir: string;
  cipher: KeyCipher;
  env?: NodeJS.ProcessEnv;
}

/** The user's model settings in `<configDir>/settings.json`, with the API key encrypted by the host's cipher. */
export class SettingsStore {
  private readonly file: JsonConfigFile<StoredSettings>;
  private readonly cipher: KeyCipher;
  private readonly env: NodeJS.ProcessEnv;

  constructor(options: SettingsStoreOptions) {
    this.file = new JsonConfigFile(options.configDir, 'settings.json', storedSettingsSchema, () => storedSettingsSchema.parse({}));
    this.cipher = options.cipher;
    this.env = options.env ?? process.env;
  }

  async get(): Promise<PublicSettings> {
    return this.toPublic(await this.file.read());
  }

  async update(patch: SettingsPatch): Promise<PublicSettings> {
    const current = await this.file.read();
    const { apiKey, approvals, ...plain } = patch;
    const next: StoredSettings = { ...current, ...definedOnly(plain), approvals: { ...current.approvals, ...definedOnly(approvals ?? {}) } };
    if (apiKey === null) delete next.apiKeyEncrypted;
    else if (apiKey !== undefined) {
      const available = this.cipher.availability();
      if (!available.ok) throw new Error(available.reason);
      next.apiKeyEncrypted = this.cipher.encrypt(apiKey).toString('base64');
    }
    await this.file.write(next);
    return this.toPublic(next);
  }

  /** The key to call the model with: the environment's OPENAI_API_KEY first, then the stored one. */
  async apiKey(): Promise<string | null> {
    const fromEnv = this.env.OPENAI_API_KEY?.trim();
    if (fromEnv) return fromEnv;
    const stored = (await this.file.read()).apiKeyEncrypted;
    return stored ? this.cipher.decrypt(Buffer.from(stored, 'base64')) : null;
  }

  /** What a run needs to reach the model, the key decrypted; read afresh before each run. */
  async llmSettings(): Promise<LlmSettings> {
    const [stored, apiKey] = await Promise.all([this.file.read(), this.apiKey()]);
    return { baseUrl: stored.baseUrl, apiKey, model: stored.model, contextWindow: stored.contextWindow, toolMode: stored.toolMode };
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
      apiKeySet: source !== 'none',
      apiKeySource: source,
      approvals: { ...defaultApprovalSettings, ...stored.approvals },
    };
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
