import type { UsageShape } from './types.js';

/** A turn's token counts in the engine's meaning (the prompt holds the cache parts, the completion the reasoning). */
export interface PlannedUsage {
  promptTokens: number;
  completionTokens: number;
  /** Absent when the turn did not script them: the wire then carries no details at all. */
  cachedTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  costUsd?: number;
}

/** A usage object as a server sends it; quirks deliberately break the SDK's type. */
export type WireUsage = Record<string, unknown>;

const TICKS_PER_USD = 1e10;

/** The usage object a server of this shape sends for these counts (see UsageShape). */
export function wireUsage(usage: PlannedUsage, shape: UsageShape): WireUsage {
  const { promptTokens: prompt, completionTokens: completion } = usage;
  const cached = usage.cachedTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  const uncached = prompt - cached - written;
  const completionDetails = usage.reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: reasoning } };
  switch (shape) {
    case 'openai':
      return {
        ...counts(prompt, completion),
        ...(usage.cachedTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
        ...completionDetails,
      };
    case 'deepseek':
      return { ...counts(prompt, completion), prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: prompt - cached, ...completionDetails };
    case 'anthropic':
      return { input_tokens: uncached, output_tokens: completion, cache_read_input_tokens: cached, cache_creation_input_tokens: written };
    case 'anthropic-proxy':
      return { ...counts(uncached, completion), cache_read_input_tokens: cached, cache_creation_input_tokens: written };
    case 'litellm':
      return { ...counts(prompt, completion), prompt_tokens_details: { cached_tokens: cached }, cache_read_input_tokens: cached, cache_creation_input_tokens: written, ...completionDetails };
    case 'openrouter':
      return {
        ...counts(prompt, completion),
        prompt_tokens_details: { cached_tokens: cached, cache_write_tokens: written, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: reasoning },
        cost: usage.costUsd ?? 0,
        is_byok: false,
        cost_details: { upstream_inference_cost: null },
      };
    case 'moonshot':
      return { ...counts(prompt, completion), cached_tokens: cached, ...completionDetails };
    case 'xai':
      return {
        prompt_tokens: prompt,
        completion_tokens: completion - reasoning,
        total_tokens: prompt + completion,
        prompt_tokens_details: { text_tokens: prompt, audio_tokens: 0, image_tokens: 0, cached_tokens: cached },
        completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        ...(usage.costUsd === undefined ? {} : { cost_in_usd_ticks: Math.round(usage.costUsd * TICKS_PER_USD) }),
      };
  }
}

/** llama.cpp's timings: `prompt_n` tokens processed, `cache_n` taken from the cache, `predicted_n` generated. */
export function wireTimings(usage: PlannedUsage): { prompt_n: number; predicted_n: number; cache_n: number } {
  const cached = usage.cachedTokens ?? 0;
  return { prompt_n: usage.promptTokens - cached, predicted_n: usage.completionTokens, cache_n: cached };
}

function counts(prompt: number, completion: number): WireUsage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
