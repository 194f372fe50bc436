import type { PublicSettings, RequestPayload, UserPrice } from '../../../../engine/contract/index.js';
import { phaseModelDraftsOf, phaseModelsPatchOf, type PhaseModelDrafts } from './phaseModelDraft.js';

/** The settings form as typed: numbers stay text until saved, and the key is only ever a new one. */
export interface SettingsDraft {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Empty for automatic: learned from the server. */
  contextWindow: string;
  toolMode: PublicSettings['toolMode'];
  retries: string;
  promptCaching: PublicSettings['promptCaching'];
  /** The model's price in dollars per million tokens; all three empty for none. */
  priceInput: string;
  priceCachedInput: string;
  priceOutput: string;
  files: PublicSettings['approvals']['files'];
  commands: PublicSettings['approvals']['commands'];
  reviewPlan: boolean;
  timeoutSeconds: string;
  /** Settings → Models: each phase's model. */
  models: PhaseModelDrafts;
}

export function draftOf(settings: PublicSettings | null): SettingsDraft {
  return {
    baseUrl: settings?.baseUrl ?? '',
    model: settings?.model ?? '',
    apiKey: '',
    contextWindow: settings?.contextWindow ? String(settings.contextWindow) : '',
    toolMode: settings?.toolMode ?? 'auto',
    retries: String(settings?.retries ?? 4),
    promptCaching: settings?.promptCaching ?? 'auto',
    priceInput: priceText(settings?.price?.input),
    priceCachedInput: priceText(settings?.price?.cachedInput),
    priceOutput: priceText(settings?.price?.output),
    files: settings?.approvals.files ?? 'ask',
    commands: settings?.approvals.commands ?? 'ask',
    reviewPlan: settings?.approvals.reviewPlan ?? false,
    timeoutSeconds: String(settings?.approvals.timeoutSeconds ?? 600),
    models: phaseModelDraftsOf(settings?.models),
  };
}

/** The settings:set request for a draft; the host validates it and answers with what is wrong. */
export function patchOf(draft: SettingsDraft): RequestPayload<'settings:set'> {
  const patch: RequestPayload<'settings:set'> = {
    baseUrl: draft.baseUrl.trim(),
    model: draft.model.trim(),
    toolMode: draft.toolMode,
    contextWindow: draft.contextWindow.trim() ? Number(draft.contextWindow) : null,
    retries: Number(draft.retries),
    promptCaching: draft.promptCaching,
    price: priceOf(draft),
    models: phaseModelsPatchOf(draft.models),
    approvals: {
      files: draft.files,
      commands: draft.commands,
      reviewPlan: draft.reviewPlan,
      timeoutSeconds: Number(draft.timeoutSeconds),
    },
  };
  if (draft.apiKey.trim()) patch.apiKey = draft.apiKey.trim();
  return patch;
}

function priceText(dollars: number | null | undefined): string {
  return dollars === null || dollars === undefined ? '' : String(dollars);
}

/** Empty fields are no price; a cached input left empty is billed as input. An input or output left empty, beside others typed, is refused by the host. */
function priceOf(draft: SettingsDraft): UserPrice | null {
  const [input, cachedInput, output] = [draft.priceInput, draft.priceCachedInput, draft.priceOutput].map((text) => text.trim());
  if (input === '' && cachedInput === '' && output === '') return null;
  const dollars = (text = '') => (text === '' ? Number.NaN : Number(text));
  return { input: dollars(input), cachedInput: cachedInput === '' ? null : dollars(cachedInput), output: dollars(output) };
}

/** What "Test connection" asks with: the form's values where typed, the saved settings elsewhere. */
export function connectionTestOf(draft: SettingsDraft): RequestPayload<'settings:test-connection'> {
  const payload: RequestPayload<'settings:test-connection'> = {};
  if (draft.baseUrl.trim()) payload.baseUrl = draft.baseUrl.trim();
  if (draft.model.trim()) payload.model = draft.model.trim();
  if (draft.apiKey.trim()) payload.apiKey = draft.apiKey.trim();
  return payload;
}
