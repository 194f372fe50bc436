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
