import type { UserPrice } from '../../contract/index.js';
import type { TokenUsage } from '../usage/tokenUsage.js';

/** A model's prices in US dollars per million tokens. */
export interface TokenPrices {
  input: number;
  /** Input read from the prompt cache; null: billed as input. */
  cachedInput: number | null;
  output: number;
  /** Input written to the cache (Anthropic-style caches bill it apart); null: billed as input. */
  cacheWrite: number | null;
}

const TOKENS_PER_PRICE = 1_000_000;

/** What `usage` costs at `prices`: each part of the prompt at its own rate, the output at the output rate. */
export function costAt(prices: TokenPrices | UserPrice, usage: TokenUsage): number {
  const cacheWrite = 'cacheWrite' in prices ? prices.cacheWrite : null;
  const fresh = usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens;
  const dollars =
    fresh * prices.input +
    usage.cachedTokens * (prices.cachedInput ?? prices.input) +
    usage.cacheWriteTokens * (cacheWrite ?? prices.input) +
    usage.completionTokens * prices.output;
  return dollars / TOKENS_PER_PRICE;
}
