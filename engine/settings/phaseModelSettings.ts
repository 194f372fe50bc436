import { z } from 'zod';
import { phaseNames, phaseSchema, type Phase, type PhaseModelPatch, type PhaseModelsView } from '../contract/index.js';
import type { ModelConnection } from '../llm/llmTypes.js';
import { sameServerModel } from '../llm/phaseModel.js';
import type { KeyCipher } from './keyCipher.js';

const windowTokens = z.number().int().positive().nullable().default(null);

/** A phase's own model as kept in settings.json; a phase that is absent runs on the default model. */
const storedPhaseModelSchema = z.discriminatedUnion('use', [
  z.object({ use: z.literal('model'), model: z.string().min(1), contextWindow: windowTokens }),
  z.object({
    use: z.literal('connection'),
    baseUrl: z.string().min(1),
    model: z.string().min(1),
    contextWindow: windowTokens,
    /** base64 of the cipher's output; never the key itself. */
    apiKeyEncrypted: z.string().optional(),
    /** The base URL the key was saved for, the only one it is sent to. */
    apiKeyBaseUrl: z.string().optional(),
  }),
]);
type StoredPhaseModel = z.infer<typeof storedPhaseModelSchema>;
type StoredConnection = Extract<StoredPhaseModel, { use: 'connection' }>;

export const storedPhaseModelsSchema = z
  .object({
    research: storedPhaseModelSchema.optional(),
    plan: storedPhaseModelSchema.optional(),
    implement: storedPhaseModelSchema.optional(),
    summary: storedPhaseModelSchema.optional(),
  })
  .default({});
export type StoredPhaseModels = z.infer<typeof storedPhaseModelsSchema>;

const phases = phaseSchema.options;

/** The stored choices with a patch applied; a new key is encrypted here and bound to its connection's base URL. */
export function patchedPhaseModels(current: StoredPhaseModels, patch: Partial<Record<Phase, PhaseModelPatch>>, cipher: KeyCipher): StoredPhaseModels {
  const next: StoredPhaseModels = { ...current };
  for (const phase of phases) {
    const change = patch[phase];
    if (change === undefined) continue;
    if (change.use === 'default') delete next[phase];
    else if (change.use === 'model') next[phase] = { use: 'model', model: change.model, contextWindow: change.contextWindow ?? null };
    else next[phase] = patchedConnection(current[phase], change, cipher);
  }
  return next;
}

function patchedConnection(previous: StoredPhaseModel | undefined, change: Extract<PhaseModelPatch, { use: 'connection' }>, cipher: KeyCipher): StoredConnection {
  const { apiKey, ...plain } = change;
  const connection: StoredConnection = { ...plain, contextWindow: change.contextWindow ?? null };
  if (apiKey === undefined && previous?.use === 'connection' && previous.apiKeyEncrypted) {
    // The key stays bound to the URL it was typed for: a connection moved elsewhere must be given it again.
    connection.apiKeyEncrypted = previous.apiKeyEncrypted;
    connection.apiKeyBaseUrl = previous.apiKeyBaseUrl ?? previous.baseUrl;
  } else if (typeof apiKey === 'string') {
    const available = cipher.availability();
    if (!available.ok) throw new Error(available.reason);
    connection.apiKeyEncrypted = cipher.encrypt(apiKey).toString('base64');
    connection.apiKeyBaseUrl = change.baseUrl;
  }
  return connection;
}

/** What Settings shows of each phase's model: never a key, only whether one is stored. */
export function phaseModelsView(stored: StoredPhaseModels): PhaseModelsView {
  const view = (choice: StoredPhaseModel | undefined): PhaseModelsView[Phase] => {
    if (!choice) return { use: 'default' };
    if (choice.use === 'model') return choice;
    const { baseUrl, model, contextWindow, apiKeyEncrypted } = choice;
    return { use: 'connection', baseUrl, model, contextWindow, apiKeySet: apiKeyEncrypted !== undefined };
  };
  return { research: view(stored.research), plan: view(stored.plan), implement: view(stored.implement), summary: view(stored.summary) };
}

export interface ResolvePhaseModelsOptions {
  stored: StoredPhaseModels;
  /** The default connection: another model on the same server uses its base URL and key. */
  main: ModelConnection;
  /** The key of a connection phase, decrypted; it throws when the host cannot decrypt. */
  decrypt: (encrypted: string) => string;
  /** Compares base URLs as the main key's binding does. */
  sameBaseUrl: (a: string, b: string) => boolean;
}

/**
 * The phases that do not run on the default model, each as a run reaches it. A connection's key goes only
 * to the base URL it was saved for: one moved elsewhere throws a sentence naming the phase.
 */
export function resolvePhaseModels({ stored, main, decrypt, sameBaseUrl }: ResolvePhaseModelsOptions): Partial<Record<Phase, ModelConnection>> {
  const resolved: Partial<Record<Phase, ModelConnection>> = {};
  for (const phase of phases) {
    const choice = stored[phase];
    if (!choice) continue;
    if (choice.use === 'model') {
      resolved[phase] = sameServerModel(main, choice.model, choice.contextWindow);
      continue;
    }
    resolved[phase] = { baseUrl: choice.baseUrl, apiKey: connectionKey(phase, choice, decrypt, sameBaseUrl), model: choice.model, contextWindow: choice.contextWindow, price: null };
  }
  return resolved;
}

function connectionKey(phase: Phase, choice: StoredConnection, decrypt: (encrypted: string) => string, sameBaseUrl: (a: string, b: string) => boolean): string | null {
  if (!choice.apiKeyEncrypted) return null;
  const savedFor = choice.apiKeyBaseUrl ?? choice.baseUrl;
  if (!sameBaseUrl(savedFor, choice.baseUrl)) {
    throw new Error(
      `The API key of the ${phaseNames[phase]} connection was saved for ${savedFor}, and is not sent to ${choice.baseUrl}: type the key again in Settings → Models.`,
    );
  }
  return decrypt(choice.apiKeyEncrypted);
}

/** The base URL and stored key of a phase's own connection, for Test connection; null when the phase has none. */
export function storedConnection(stored: StoredPhaseModels, phase: Phase): StoredConnection | null {
  const choice = stored[phase];
  return choice?.use === 'connection' ? choice : null;
}
