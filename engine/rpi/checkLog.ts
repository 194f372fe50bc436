import path from 'node:path';
import { z } from 'zod';
import { checkResultSchema, type CheckResult, type PlanItem } from '../contract/index.js';
import { AppendLog } from '../store/appendLog.js';
import { intactJsonlBytes, readJsonl } from '../store/jsonl.js';
import { StateFileError } from '../store/stateFile.js';
import { shownStateDir } from '../store/stateDirNames.js';

/** The name of the check log, in rpi/ for the current run and in runs/<messageId>/ once kept. */
export const checksFileName = 'checks.jsonl';

/** Far beyond any run's checks (a line is about 200 bytes); a planted huge file is refused unread. */
const checksFileMaxBytes = 4 * 1024 * 1024;

/**
 * One line of checks.jsonl: one check that ran (or was denied), appended as it ends, so what the plan shows
 * for each item survives a crash, a resume and a reload. Read back from the folder, so every field is checked.
 */
export const checkLineSchema = checkResultSchema.extend({
  runId: z.string().max(200),
  ts: z.number(),
  /** The item's index in file order; null for the folder's check over the whole change after the last item. */
  index: z.number().int().nonnegative().max(100_000).nullable(),
  /** 0 after the item's own attempt, then 1, 2 after each fix round. */
  round: z.number().int().nonnegative().max(100),
});
export type CheckLine = z.infer<typeof checkLineSchema>;

/** The latest result of each item's check (by index) and of the final folder check. */
export interface CheckResults {
  items: Map<number, CheckResult>;
  final: CheckResult | null;
}

export const currentChecksFile = (stateDir: string): string => path.join(stateDir, 'rpi', checksFileName);
/** How warnings name the current run's check log: in its conversation's folder. */
export const currentChecksLabel = (stateDir: string): string => `${shownStateDir(stateDir)}/rpi/${checksFileName}`;

/** Appends to the current run's check log; one per run. */
export function checkLog(stateDir: string, warn: (message: string) => void): AppendLog<CheckLine> {
  return new AppendLog({ file: currentChecksFile(stateDir), schema: checkLineSchema, label: currentChecksLabel(stateDir), onCut: warn, maxBytes: checksFileMaxBytes });
}

/**
 * The results in a check log (the current run's, or one kept in runs/), the latest line of each target
 * counting. A log that cannot be read safely counts as none, with a warning; a corrupt line is skipped.
 */
export async function readCheckResults(file: string, label: string): Promise<CheckResults & { warnings: string[] }> {
  const results: CheckResults = { items: new Map(), final: null };
  try {
    const { records, warnings } = await readJsonl(file, checkLineSchema, label, { maxBytes: checksFileMaxBytes });
    for (const { command, source, outcome, exitCode, index } of records) {
      const result: CheckResult = { command, source, outcome, exitCode };
      if (index === null) results.final = result;
      else results.items.set(index, result);
    }
    return { ...results, warnings };
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    return { ...results, warnings: [`${error.message} The checks' results are not shown.`] };
  }
}

/** The items with their latest check result attached. */
export function withCheckResults(items: readonly PlanItem[], results: CheckResults): PlanItem[] {
  return items.map((item) => {
    const result = results.items.get(item.index);
    return result ? { ...item, checkResult: result } : item;
  });
}

/** The bytes of rpi/checks.jsonl up to its last complete line, to keep with the plan history; null when there is none. */
export function checksToKeep(stateDir: string): Promise<Buffer | null> {
  return intactJsonlBytes(currentChecksFile(stateDir), checkLineSchema, checksFileName, checksFileMaxBytes);
}
