/**
 * The plan history: what each request's run kept (its research.md and plan.md, archived in
 * `.workbench/runs/<messageId>/` when a newer request clears rpi/). Types and small pure helpers only,
 * free of zod and of any package, so a sandboxed page may load it.
 */
import type { ChecksTally } from './checkText.js';
import type { PlanItem } from './model.js';

/** The outcome of a plan's steps: how many are done, failed, and in all (the rest are still to do). */
export interface PlanTally {
  done: number;
  failed: number;
  total: number;
}

/** What one request's run kept: whether research.md was written, and its plan's tally (null: no plan). */
export interface RunSummary {
  research: boolean;
  plan: PlanTally | null;
  /** The plan's checks by their latest result (the folder's final check counted when it ran); absent without a plan. */
  checks?: ChecksTally;
}

/** A request's research.md or plan.md (a plan with its items parsed, outcomes included), or why there is none to show. */
export type RunFileAnswer = { text: string; items?: PlanItem[] } | { text: null; reason: string };

/** "Plan: 3/4 done, 1 failed", "Plan: 2/2 done", "Plan: no steps". */
export function describePlanTally({ done, failed, total }: PlanTally): string {
  if (total === 0) return 'Plan: no steps';
  return `Plan: ${done}/${total} done${failed > 0 ? `, ${failed} failed` : ''}`;
}

/** The tally of a plan's items by status. */
export function tallyPlan(items: readonly { status: 'pending' | 'done' | 'failed' }[]): PlanTally {
  return {
    done: items.filter((item) => item.status === 'done').length,
    failed: items.filter((item) => item.status === 'failed').length,
    total: items.length,
  };
}
