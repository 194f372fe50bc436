/**
 * Prices and context windows of well-known models from the catalog bundled with @pydantic/genai-prices.
 * Only its bundled data is read: `updatePrices`, its one way to fetch newer data, is never called, so no
 * lookup reaches the network. The catalog (about 0.5 MB of data) is loaded on the first lookup, not when
 * the engine starts: a CLI command that asks no model does not pay for it.
 */
import type * as GenaiPrices from '@pydantic/genai-prices';
import type { PriceCalculation, Usage } from '@pydantic/genai-prices';
import type { TokenUsage } from '../usage/tokenUsage.js';
import { isLocalServer } from './localServer.js';
import type { TokenPrices } from './tokenPrices.js';

/** A model as the user names it, and the server it is asked at. */
export interface ModelAt {
  /** As typed in Settings: `gpt-4.1-mini`, `openai/gpt-4.1-mini`, `anthropic/claude-sonnet-4`, `gpt-4o-2024-08-06`. */
  model: string;
  baseUrl: string;
}

const noTokens: Usage = { input_tokens: 0, output_tokens: 0 };

type Catalog = typeof GenaiPrices;
let loading: Promise<Catalog> | undefined;

function catalog(): Promise<Catalog> {
  loading ??= import('@pydantic/genai-prices');
  return loading;
}

/**
 * The catalog's entry, matched by the catalog's own rules. A base URL that is a known provider's API
 * (api.openai.com, openrouter.ai, api.deepseek.com, …) means that provider's prices and no other's. At
 * another server the model's name decides: the provider before an `org/` prefix, else the provider
 * whose model names it matches (genai-prices reads ids this way for its `litellm` provider id), then that
 * provider's own match rules (dated suffixes, aliases). A server on the user's machine or network runs the
 * model on the user's hardware: its name says nothing about a price, so `forMoney` finds nothing there.
 */
async function entryFor(usage: Usage, { model, baseUrl }: ModelAt, forMoney: boolean): Promise<PriceCalculation | null> {
  const name = model.trim();
  if (name === '') return null;
  const { calcPrice, findProvider } = await catalog();
  try {
    const server = serverOf(baseUrl, findProvider);
    if (server.providerId !== null) {
      const atHost = calcPrice(usage, name, { providerId: server.providerId });
      if (atHost || forMoney) return atHost;
    }
    if (forMoney && server.local) return null;
    return calcPrice(usage, name, { providerId: 'litellm' });
  } catch {
    // Counts the catalog refuses (more cached than input) leave the request unpriced, never the run failed.
    return null;
  }
}

/** A run asks the same server for every request: what its base URL says is worked out once (the bundled catalog never changes). */
const servers = new Map<string, { providerId: string | null; local: boolean }>();
const keptServers = 32;

function serverOf(baseUrl: string, findProvider: Catalog['findProvider']): { providerId: string | null; local: boolean } {
  const url = baseUrl.trim();
  let server = servers.get(url);
  if (!server) {
    server = { providerId: findProvider({ providerApiUrl: url })?.id ?? null, local: isLocalServer(url) };
    if (servers.size >= keptServers) servers.delete(servers.keys().next().value as string);
    servers.set(url, server);
  }
  return server;
}

/** What the request cost by the catalog's prices (tiers by prompt size, cache rates, time-of-day prices included); null when it has none. */
export async function catalogCostUsd(usage: TokenUsage, at: ModelAt): Promise<number | null> {
  const catalogUsage: Usage = {
    input_tokens: usage.promptTokens,
    cache_read_tokens: usage.cachedTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    output_tokens: usage.completionTokens,
  };
  return (await entryFor(catalogUsage, at, true))?.total_price ?? null;
}

/** The model's prices in the catalog (the first tier where prices rise with the prompt's size); null when it has none. */
export async function catalogPrices(at: ModelAt): Promise<TokenPrices | null> {
  const entry = await entryFor(noTokens, at, true);
  if (!entry) return null;
  const price = entry.model_price;
  const input = perMillion(price['input_mtok']);
  const output = perMillion(price['output_mtok']);
  if (input === null || output === null) return null;
  return { input, cachedInput: perMillion(price['cache_read_mtok']), output, cacheWrite: perMillion(price['cache_write_mtok']) };
}

export interface CatalogWindow {
  tokens: number;
  /** The entry it came from, e.g. "openai gpt-4.1". */
  entry: string;
}

/**
 * The model's context window in the catalog: its own entry's, else that of its maker's entry (an
 * `org/` prefix names the maker), else OpenRouter's entry for it (`google/gemini-2.5-pro`). Any server:
 * a window is the model's, wherever it runs. Null when the catalog does not say.
 */
export async function catalogContextWindow(at: ModelAt): Promise<CatalogWindow | null> {
  const own = await entryFor(noTokens, at, false);
  const maker = await entryFor(noTokens, { model: at.model, baseUrl: '' }, false);
  const bare = at.model.trim().replace(/^[^/]*\//, '');
  const routed = maker ? await entryFor(noTokens, { model: `${maker.provider.id}/${bare}`, baseUrl: 'https://openrouter.ai/api/v1' }, false) : null;
  const found = [own, maker, routed].find((entry) => windowOf(entry) !== null);
  if (!found) return null;
  return { tokens: windowOf(found) ?? 0, entry: `${found.provider.id} ${found.model.id}` };
}

function windowOf(entry: PriceCalculation | null): number | null {
  const tokens = entry?.model.context_window;
  return typeof tokens === 'number' && Number.isInteger(tokens) && tokens > 0 ? tokens : null;
}

/** A price as the catalog holds it: a number, or tiers whose base applies to prompts below the first tier. */
function perMillion(value: PriceCalculation['model_price'][string]): number | null {
  if (typeof value === 'number') return value;
  return value === undefined ? null : value.base;
}
