import type { ReportedUsage } from '../usage/tokenUsage.js';
import { catalogCostUsd, type ModelAt } from './modelCatalog.js';
import type { UserPrice } from '../../contract/index.js';
import { costAt } from './tokenPrices.js';

export interface RequestCostInput extends ModelAt {
  /** The tokens, and the cost when the server reported one. */
  usage: ReportedUsage;
  /** The price set in Settings for this model, if any. */
  userPrice?: UserPrice | null;
}

/**
 * What one request cost in US dollars: at the user's own price when one is set; else what the server
 * said it charged (OpenRouter's `cost`, xAI's ticks); else at the catalog's price for the model. Null
 * when none of these is known: an unknown model shows its tokens only, never an invented price.
 */
export async function requestCost({ usage, userPrice, model, baseUrl }: RequestCostInput): Promise<number | null> {
  if (userPrice) return costAt(userPrice, usage);
  if (usage.costUsd !== null) return usage.costUsd;
  return catalogCostUsd(usage, { model, baseUrl });
}
