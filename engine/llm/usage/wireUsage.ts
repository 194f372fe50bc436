import { isRecord } from '../streamFrames.js';
import type { ReportedUsage } from './tokenUsage.js';

/** xAI reports cost as `cost_in_usd_ticks`, 10^10 ticks to the dollar. */
const TICKS_PER_USD = 1e10;

/**
 * A `usage` object in any of the shapes servers send, in the meaning of TokenUsage:
 * - OpenAI (also vLLM, Groq, llama.cpp, xAI, Gemini): `prompt_tokens` counts the cached tokens too, which
 *   `prompt_tokens_details.cached_tokens` names; `completion_tokens_details.reasoning_tokens` is part of
 *   `completion_tokens`, except at servers that count it apart (xAI, some Gemini proxies): their
 *   `total_tokens` is prompt + completion + reasoning, and then the reasoning is added to the output.
 * - DeepSeek: `prompt_cache_hit_tokens` + `prompt_cache_miss_tokens` = `prompt_tokens`.
 * - Moonshot/Kimi: `cached_tokens` at the top of usage, part of `prompt_tokens`.
 * - OpenRouter: `prompt_tokens_details.cache_write_tokens` beside `cached_tokens`, both part of
 *   `prompt_tokens`; `cost` in dollars (credits), and for a request on the user's own key
 *   (`is_byok`) the provider's charge in `cost_details.upstream_inference_cost`.
 * - xAI: the cost in `cost_in_usd_ticks`.
 * - Anthropic's names (`input_tokens`, `output_tokens`): `input_tokens` leaves out
 *   `cache_read_input_tokens` and `cache_creation_input_tokens`, so the prompt is their sum.
 * - Anthropic's cache fields beside `prompt_tokens` (proxies): a proxy that also sends OpenAI's
 *   `cached_tokens` means `prompt_tokens` as OpenAI does, with the cache in it (LiteLLM adds both parts to
 *   it); one that does not passes Anthropic's meaning on, and the parts are added. A `prompt_tokens`
 *   smaller than the parts it should hold cannot hold them: the cache writes are added to it.
 * Null when the object has no prompt and completion counts.
 */
export function usageFromWire(value: unknown): ReportedUsage | null {
  if (!isRecord(value)) return null;
  const reportedPrompt = count(value['prompt_tokens']) ?? count(value['input_tokens']);
  const reportedCompletion = count(value['completion_tokens']) ?? count(value['output_tokens']);
  if (reportedPrompt === null || reportedCompletion === null) return null;
  const promptDetails = recordIn(value, 'prompt_tokens_details', 'input_tokens_details');
  const completionDetails = recordIn(value, 'completion_tokens_details', 'output_tokens_details');
  const anthropicRead = count(value['cache_read_input_tokens']);
  const anthropicWrite = count(value['cache_creation_input_tokens']);
  const openAiCached = count(promptDetails['cached_tokens']);
  const cachedTokens = openAiCached ?? anthropicRead ?? count(value['prompt_cache_hit_tokens']) ?? count(value['cached_tokens']) ?? 0;
  const cacheWriteTokens = count(promptDetails['cache_write_tokens']) ?? anthropicWrite ?? 0;
  const promptTokens = fullPrompt({
    reported: reportedPrompt,
    anthropicNames: count(value['prompt_tokens']) === null,
    read: anthropicRead ?? 0,
    write: anthropicWrite ?? 0,
    openAiMeaning: openAiCached !== null,
  });
  const reasoningTokens = count(completionDetails['reasoning_tokens']) ?? 0;
  const reasoningApart = reasoningTokens > 0 && count(value['total_tokens']) === reportedPrompt + reportedCompletion + reasoningTokens;
  const cached = Math.min(cachedTokens, promptTokens);
  return {
    promptTokens,
    cachedTokens: cached,
    cacheWriteTokens: Math.min(cacheWriteTokens, promptTokens - cached),
    completionTokens: reportedCompletion + (reasoningApart ? reasoningTokens : 0),
    reasoningTokens,
    costUsd: reportedCost(value),
  };
}

/**
 * llama.cpp's `timings`, which older servers send instead of usage: `prompt_n` tokens were processed,
 * `cache_n` more came from the cache, `predicted_n` were generated. Null when they are not there.
 */
export function usageFromTimings(value: unknown): ReportedUsage | null {
  if (!isRecord(value)) return null;
  const processed = count(value['prompt_n']);
  const generated = count(value['predicted_n']);
  if (processed === null || generated === null) return null;
  const cached = count(value['cache_n']) ?? 0;
  return { promptTokens: processed + cached, cachedTokens: cached, cacheWriteTokens: 0, completionTokens: generated, reasoningTokens: 0, costUsd: null };
}

interface PromptParts {
  reported: number;
  /** The count came as Anthropic's `input_tokens`, which never holds the cache parts. */
  anthropicNames: boolean;
  read: number;
  write: number;
  /** OpenAI's `cached_tokens` came too, so the reported count is meant as OpenAI's, with the cache in it. */
  openAiMeaning: boolean;
}

function fullPrompt({ reported, anthropicNames, read, write, openAiMeaning }: PromptParts): number {
  if (anthropicNames || !openAiMeaning) return reported + read + write;
  return reported >= read + write ? reported : reported + write;
}

function reportedCost(usage: Record<string, unknown>): number | null {
  const ticks = count(usage['cost_in_usd_ticks']);
  if (ticks !== null) return ticks / TICKS_PER_USD;
  const cost = dollars(usage['cost']);
  if (cost === null) return null;
  const upstream = usage['is_byok'] === true && isRecord(usage['cost_details']) ? dollars(usage['cost_details']['upstream_inference_cost']) : null;
  return cost + (upstream ?? 0);
}

function recordIn(value: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  for (const key of keys) {
    const candidate = value[key];
    if (isRecord(candidate)) return candidate;
  }
  return {};
}

/** A token count as servers send it: a whole number, not negative. */
function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function dollars(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}
