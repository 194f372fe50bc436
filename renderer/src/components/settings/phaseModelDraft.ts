import type { Phase, PhaseModelPatch, PhaseModelsView, RequestPayload } from '../../../../engine/contract/index.js';

export const modelPhases = ['research', 'plan', 'implement', 'summary'] as const satisfies readonly Phase[];

/** One phase's row of the Models section as typed: numbers stay text, and the key is only ever a new one. */
export interface PhaseModelDraft {
  use: PhaseModelPatch['use'];
  model: string;
  baseUrl: string;
  apiKey: string;
  /** Empty for automatic: learned from the server for this model. */
  contextWindow: string;
  /** A key is stored for the phase's connection. */
  apiKeySet: boolean;
  /** Forget the stored key on save. */
  forgetKey: boolean;
}

export type PhaseModelDrafts = Record<Phase, PhaseModelDraft>;

export function phaseModelDraftsOf(models: PhaseModelsView | undefined): PhaseModelDrafts {
  const draft = (phase: Phase): PhaseModelDraft => {
    const saved = models?.[phase] ?? { use: 'default' };
    const blank: PhaseModelDraft = { use: saved.use, model: '', baseUrl: '', apiKey: '', contextWindow: '', apiKeySet: false, forgetKey: false };
    if (saved.use === 'default') return blank;
    const window = saved.contextWindow === null ? '' : String(saved.contextWindow);
    if (saved.use === 'model') return { ...blank, model: saved.model, contextWindow: window };
    return { ...blank, model: saved.model, baseUrl: saved.baseUrl, contextWindow: window, apiKeySet: saved.apiKeySet };
  };
  return { research: draft('research'), plan: draft('plan'), implement: draft('implement'), summary: draft('summary') };
}

/** The models part of settings:set; the host validates it and answers with what is wrong. */
export function phaseModelsPatchOf(drafts: PhaseModelDrafts): NonNullable<RequestPayload<'settings:set'>['models']> {
  return Object.fromEntries(modelPhases.map((phase) => [phase, phaseModelPatchOf(drafts[phase])]));
}

function phaseModelPatchOf(draft: PhaseModelDraft): PhaseModelPatch {
  const contextWindow = draft.contextWindow.trim() ? Number(draft.contextWindow) : null;
  if (draft.use === 'default') return { use: 'default' };
  if (draft.use === 'model') return { use: 'model', model: draft.model.trim(), contextWindow };
  const key = draft.apiKey.trim() ? { apiKey: draft.apiKey.trim() } : draft.forgetKey ? { apiKey: null } : {};
  return { use: 'connection', baseUrl: draft.baseUrl.trim(), model: draft.model.trim(), contextWindow, ...key };
}

/** What "Test connection" of a phase asks with: on the same server, the default connection with the phase's model; else the phase's own. */
export function phaseConnectionTestOf(phase: Phase, draft: PhaseModelDraft, main: RequestPayload<'settings:test-connection'>): RequestPayload<'settings:test-connection'> {
  const model = draft.model.trim() ? { model: draft.model.trim() } : {};
  if (draft.use !== 'connection') return { ...main, ...model };
  return { phase, ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}), ...model, ...(draft.apiKey.trim() ? { apiKey: draft.apiKey.trim() } : {}) };
}
