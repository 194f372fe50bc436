import type { Phase } from '../contract/index.js';
import type { LlmSettings, ModelConnection } from './llmTypes.js';

/** The phase's own model and server when Settings or a flag names one, else the default. */
export function connectionFor(settings: LlmSettings, phase: Phase): ModelConnection {
  return settings.phaseModels?.[phase] ?? settings;
}

/** The API keys of every connection the settings use, the default one's first; for masking and for commands' environment. */
export function connectionKeys(settings: LlmSettings): string[] {
  const keys = [settings.apiKey, ...Object.values(settings.phaseModels ?? {}).map((connection) => connection.apiKey)];
  return [...new Set(keys.filter((key): key is string => key !== null))];
}

/** Two phases share a model client (and what was learned of its window) when they reach the same model the same way. */
export function connectionIdentity({ baseUrl, apiKey, model, contextWindow, price }: ModelConnection): string {
  return JSON.stringify([baseUrl.replace(/\/+$/, ''), apiKey, model, contextWindow, price ?? null]);
}

/**
 * Another model on the default connection's server, reached with its key. The user's price is the default
 * model's, so a phase on another model is priced from the server or the catalog instead.
 */
export function sameServerModel(main: ModelConnection, model: string, contextWindow: number | null = null): ModelConnection {
  return { baseUrl: main.baseUrl, apiKey: main.apiKey, model, contextWindow, price: model === main.model ? (main.price ?? null) : null };
}
