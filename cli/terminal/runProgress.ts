import { describeModelStatus, type Phase, type WorkbenchEvent } from '../../engine/contract/index.js';

/** What the status line shows, folded from the run's events. */
export interface RunProgress {
  phase: Phase | null;
  /** The plan item being worked on, as implement-progress announced it. */
  step: { current: number; total: number; label: string } | null;
  /** Plan items finished (done or failed) out of all of them. */
  items: { finished: number; total: number };
  /** Prompt and completion tokens of every model call so far. */
  tokens: number;
  /** What the model call is doing, when it says (queued, thinking, retrying…); null while it answers or a tool runs. */
  model: string | null;
  /** The model the current phase runs on, as phase-started named it. */
  phaseModel: string | null;
}

export const initialProgress: RunProgress = { phase: null, step: null, items: { finished: 0, total: 0 }, tokens: 0, model: null, phaseModel: null };

export function applyToProgress(progress: RunProgress, event: WorkbenchEvent): RunProgress {
  switch (event.type) {
    case 'phase-started':
      return { ...progress, phase: event.phase, step: event.phase === 'implement' ? progress.step : null, model: null, phaseModel: event.model ?? null };
    case 'model-status':
      return { ...progress, model: describeModelStatus(event) };
    case 'tool-started':
      return { ...progress, model: null };
    case 'implement-progress':
      return { ...progress, step: { current: event.current, total: event.total, label: event.label } };
    case 'plan-updated':
      return { ...progress, items: { finished: event.items.filter((item) => item.status !== 'pending').length, total: event.items.length } };
    case 'usage':
      return { ...progress, tokens: progress.tokens + event.promptTokens + event.completionTokens };
    default:
      return progress;
  }
}
