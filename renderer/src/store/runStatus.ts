import type { Phase, PlanItem } from '../../../engine/contract/index.js';
import { describeModelStatus } from '../../../engine/contract/modelStatusText.js';
import type { RunView } from './runView.js';

import { phaseNames } from '../../../engine/contract/phaseNames.js';

export { phaseNames };

const workingLabels: Record<Exclude<Phase, 'implement'>, string> = {
  research: 'Analyzing files…',
  plan: 'Planning approach…',
  summary: 'Summarizing results…',
};

/** The plan item being implemented right now: the one implement-progress named, while it is still pending. */
export function runningItemOf(run: Pick<RunView, 'status' | 'phase' | 'steps' | 'progress' | 'items'>): number | null {
  if (run.status !== 'running' || run.phase !== 'implement' || run.steps.implement.state !== 'active' || !run.progress) return null;
  const index = run.progress.current - 1;
  return run.items.some((item) => item.index === index && item.status === 'pending') ? index : null;
}

/** An item's status on the checklist, with "running" for the one being worked on. */
export function checklistStatus(run: Pick<RunView, 'runningItem'>, item: PlanItem): PlanItem['status'] | 'running' {
  return run.runningItem === item.index ? 'running' : item.status;
}

/** The one-line status of a run: what it is doing now (and what the model call is doing, when it says), or how it ended. */
export function describeRun(run: Pick<RunView, 'status' | 'phase' | 'progress' | 'planReview' | 'stoppedIn' | 'modelStatus'>): string {
  const working = describeWork(run);
  const model = run.status === 'running' && !run.planReview && run.modelStatus ? describeModelStatus(run.modelStatus) : null;
  return model ? `${working} — ${model}` : working;
}

function describeWork(run: Pick<RunView, 'status' | 'phase' | 'progress' | 'planReview' | 'stoppedIn'>): string {
  switch (run.status) {
    case 'done':
      return 'Finished';
    case 'failed':
      return run.stoppedIn ? `Failed during ${phaseNames[run.stoppedIn]}` : 'Failed';
    case 'cancelled':
      return run.stoppedIn ? `Stopped during ${phaseNames[run.stoppedIn]}` : 'Stopped';
    case 'running':
      if (run.planReview) return 'Waiting for you to review the plan';
      if (run.phase === null) return 'Starting…';
      if (run.phase !== 'implement') return workingLabels[run.phase];
      if (run.progress) return `Working on step ${run.progress.current} of ${run.progress.total}: ${run.progress.label}`;
      return 'Working through the plan…';
  }
}
