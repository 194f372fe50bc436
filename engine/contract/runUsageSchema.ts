import { z } from 'zod';
import { phaseSchema } from './model.js';
import type { RunUsage, StepUsage, UsageTotal } from './runUsage.js';

const tokens = z.number().int().nonnegative();
const modelName = z.string().nullable();
const tokenCountsShape = { promptTokens: tokens, cachedTokens: tokens, cacheWriteTokens: tokens, completionTokens: tokens, reasoningTokens: tokens };

export const stepUsageSchema: z.ZodType<StepUsage> = z.object({
  ...tokenCountsShape,
  phase: phaseSchema,
  item: z.object({ index: z.number().int().nonnegative(), label: z.string() }).optional(),
  calls: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  unpricedCalls: z.number().int().nonnegative(),
  estimated: z.boolean(),
  model: z.string().optional(),
});

export const runUsageSchema: z.ZodType<RunUsage> = z.object({ messageId: z.string(), steps: z.array(stepUsageSchema) });

export const usageTotalSchema: z.ZodType<UsageTotal> = z.object({
  ...tokenCountsShape,
  calls: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  unpricedSteps: z.number().int().nonnegative(),
  estimated: z.boolean(),
  models: z.object({ research: modelName, plan: modelName, implement: modelName, summary: modelName }),
});
