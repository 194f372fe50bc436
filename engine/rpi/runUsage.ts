import { z } from 'zod';
import { addTokens, phaseSchema, type RunUsage, type StepUsage } from '../contract/index.js';
import { intactJsonlBytes, readJsonl } from '../store/jsonl.js';
import { StateFileError } from '../store/stateFile.js';
import { readRunRecord } from './runRecord.js';
import { rpiPaths } from './rpiState.js';
import { shownStateDir } from '../store/stateDirNames.js';

/** The name of the usage log, in rpi/ for the current run and in runs/<messageId>/ once kept. */
export const usageFileName = 'usage.jsonl';

/**
 * Far beyond any run's calls (a line is about 250 bytes), small enough that a planted huge file is
 * refused instead of read into memory.
 */
export const usageFileMaxBytes = 8 * 1024 * 1024;

const tokens = z.number().int().nonnegative();

/**
 * One line of usage.jsonl: one model call of the run, appended as it is counted, so the sums survive a
 * crash, add up over resumes (every run of the request appends to the same file) and are read back after
 * a reload. Read back from the folder, so every field is checked.
 */
export const usageLineSchema = z.object({
  runId: z.string().max(200),
  /** When the call was counted (ms since the epoch). */
  ts: z.number(),
  phase: phaseSchema,
  /** The plan item an Implement call worked on. */
  item: z.object({ index: z.number().int().nonnegative().max(100_000), label: z.string().max(500) }).optional(),
  promptTokens: tokens,
  cachedTokens: tokens,
  cacheWriteTokens: tokens,
  completionTokens: tokens,
  reasoningTokens: tokens,
  /** US dollars; null when no price was known for the call. */
  costUsd: z.number().nonnegative().nullable(),
  /** The server sent no usage: the counts were estimated with a tokenizer. */
  estimated: z.boolean().optional(),
  /** The model that answered (absent in lines kept before phases had their own models). */
  model: z.string().max(500).optional(),
});
export type UsageLine = z.infer<typeof usageLineSchema>;

export const currentUsageFile = (stateDir: string): string => `${rpiPaths(stateDir).dir}/${usageFileName}`;

/** How warnings name the current run's usage log: in its conversation's folder. */
export const currentUsageLabel = (stateDir: string): string => `${shownStateDir(stateDir)}/rpi/${usageFileName}`;

/** Usage lines read back, and a sentence for each line that was skipped. */
export interface UsageRead {
  lines: UsageLine[];
  warnings: string[];
}

/** The usage log at `file` (no lines when there is none); a corrupt line is skipped with a warning, the others are kept. */
export async function readUsageLines(file: string, label: string): Promise<UsageRead> {
  const { records, warnings } = await readJsonl(file, usageLineSchema, label, { maxBytes: usageFileMaxBytes });
  return { lines: records, warnings };
}

/**
 * The current run's usage per step (from rpi/), for the request its record names; null when rpi/ holds no
 * record or no usage. A file that cannot be read safely (a link, too large) is a warning, not an error.
 */
export async function readCurrentUsage(stateDir: string): Promise<{ usage: RunUsage | null; warnings: string[] }> {
  const record = await readRunRecord(stateDir);
  if (!record) return { usage: null, warnings: [] };
  try {
    const { lines, warnings } = await readUsageLines(currentUsageFile(stateDir), currentUsageLabel(stateDir));
    return { usage: lines.length === 0 ? null : { messageId: record.messageId, steps: stepsOf(lines) }, warnings };
  } catch (error) {
    if (error instanceof StateFileError) return { usage: null, warnings: [`${error.message} The usage of the current run is not shown.`] };
    throw error;
  }
}

/** The bytes of rpi/usage.jsonl up to its last complete line, to keep with the plan history; null when there is none. */
export function usageToKeep(stateDir: string): Promise<Buffer | null> {
  return intactJsonlBytes(currentUsageFile(stateDir), usageLineSchema, usageFileName, usageFileMaxBytes);
}

/** The lines summed per step, in run order: Research, Plan, the items by index, Summary. */
export function stepsOf(lines: readonly UsageLine[]): StepUsage[] {
  const steps = new Map<string, StepUsage>();
  for (const line of lines) {
    const key = stepKey(line);
    steps.set(key, addLine(steps.get(key), line));
  }
  return [...steps.values()].sort(inRunOrder);
}

/** A step with one more call counted. */
export function addLine(step: StepUsage | undefined, line: UsageLine): StepUsage {
  const base: StepUsage = step ?? {
    phase: line.phase,
    ...(line.phase === 'implement' && line.item ? { item: line.item } : {}),
    promptTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    completionTokens: 0,
    reasoningTokens: 0,
    calls: 0,
    costUsd: null,
    unpricedCalls: 0,
    estimated: false,
  };
  return {
    ...base,
    ...addTokens(base, line),
    // The label as the latest call knew it: a plan edited between runs renames its item.
    ...(base.item && line.item ? { item: line.item } : {}),
    calls: base.calls + 1,
    costUsd: line.costUsd === null ? base.costUsd : (base.costUsd ?? 0) + line.costUsd,
    unpricedCalls: base.unpricedCalls + (line.costUsd === null ? 1 : 0),
    estimated: base.estimated || line.estimated === true,
    ...(line.model ? { model: line.model } : {}),
  };
}

/** research, plan, implement:<index>, summary. */
export function stepKey(line: Pick<UsageLine, 'phase' | 'item'>): string {
  return line.phase === 'implement' && line.item ? `implement:${line.item.index}` : line.phase;
}

const phaseRank = { research: 0, plan: 1, implement: 2, summary: 3 } as const;

/** Research, Plan, the items by index, Summary. */
export function inRunOrder(a: StepUsage, b: StepUsage): number {
  return phaseRank[a.phase] - phaseRank[b.phase] || (a.item?.index ?? -1) - (b.item?.index ?? -1);
}
