/**
 * What a request's model calls used, per step of its run and in all: kept on disk with the run, given in
 * the snapshot and the `run-usage` event, shown by the run panel, the chat, the CLI and `history --json`.
 * Types and small pure helpers only, free of zod and of any package, so a sandboxed page may load it.
 */
import { costTotalText, type CostTotal } from './costTotal.js';
import type { Phase } from './model.js';
import type { PhaseModelNames } from './phaseModels.js';

/** Tokens in one meaning whatever the server's field names: cached and cache-write are parts of the prompt, reasoning a part of the completion. */
export interface TokenCounts {
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

/** A plan item as a step of the run: its index in plan.md (0-based, file order) and its label as the run announced it. */
export interface UsageItem {
  index: number;
  label: string;
}

/** The sums of one step's model calls: Research, Plan, one plan item, or Summary; a resumed step's earlier calls included. */
export interface StepUsage extends TokenCounts {
  phase: Phase;
  /** The plan item, for an Implement step. */
  item?: UsageItem;
  calls: number;
  /** US dollars of the calls that had a price; null when none had one. */
  costUsd: number | null;
  /** Calls without a known price, never counted as free. */
  unpricedCalls: number;
  /** True when the server sent no usage for some call and its counts were estimated. */
  estimated: boolean;
  /** The model of the step's latest call (absent in usage kept before phases had their own models). */
  model?: string;
}

/** The current run's usage per step (in run order: Research, Plan, the items by index, Summary), for the request it answers. */
export interface RunUsage {
  messageId: string;
  steps: StepUsage[];
}

/** A request's usage in all: its steps added up; a step with an unpriced call counts as an unpriced step. */
export interface UsageTotal extends TokenCounts {
  calls: number;
  /** US dollars of the priced steps; null when none had a price. */
  costUsd: number | null;
  unpricedSteps: number;
  estimated: boolean;
  /** Which model ran each phase. */
  models: PhaseModelNames;
}

export const noTokens: TokenCounts = { promptTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, reasoningTokens: 0 };

/** Token counts added up. */
export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

/** The request's total over its steps. */
export function usageTotalOf(steps: readonly StepUsage[]): UsageTotal {
  const priced = steps.filter((step) => step.costUsd !== null);
  return {
    ...steps.reduce<TokenCounts>((sum, step) => addTokens(sum, step), noTokens),
    calls: steps.reduce((sum, step) => sum + step.calls, 0),
    costUsd: priced.length === 0 ? null : priced.reduce((sum, step) => sum + (step.costUsd ?? 0), 0),
    unpricedSteps: steps.filter((step) => step.unpricedCalls > 0).length,
    estimated: steps.some((step) => step.estimated),
    models: phaseModelsOf(steps),
  };
}

/** The model of each phase's latest step (in run order) that names one. */
export function phaseModelsOf(steps: readonly StepUsage[]): PhaseModelNames {
  const models: PhaseModelNames = { research: null, plan: null, implement: null, summary: null };
  for (const step of steps) if (step.model) models[step.phase] = step.model;
  return models;
}

/** "58,200 tokens in (49,100 cached) · 3,900 out · $0.031" for a request; tokens only when nothing had a price. */
export function usageTotalText(total: UsageTotal): string {
  return usageText(total, { costUsd: total.costUsd, unpricedSteps: total.unpricedSteps }, 'step');
}

/** The same for one step, a partly priced one naming its unpriced calls ("≥ $0.004, 1 call unpriced"). */
export function stepUsageText(step: StepUsage): string {
  return usageText(step, { costUsd: step.costUsd, unpricedSteps: step.unpricedCalls }, 'call');
}

function usageText(usage: TokenCounts & { estimated: boolean }, cost: CostTotal, unit: 'step' | 'call'): string {
  const count = (tokens: number) => tokens.toLocaleString('en-US');
  const inParts = [usage.cachedTokens > 0 ? `${count(usage.cachedTokens)} cached` : '', usage.cacheWriteTokens > 0 ? `${count(usage.cacheWriteTokens)} written to cache` : ''].filter(Boolean);
  const tokensIn = `${usage.estimated ? '≈ ' : ''}${count(usage.promptTokens)} tokens in${inParts.length > 0 ? ` (${inParts.join(', ')})` : ''}`;
  const tokensOut = `${count(usage.completionTokens)} out${usage.reasoningTokens > 0 ? ` (${count(usage.reasoningTokens)} reasoning)` : ''}`;
  const money = costTotalText(cost, unit);
  return [tokensIn, tokensOut, ...(money === null ? [] : [money])].join(' · ');
}
