import type { Phase } from '../../engine/contract/index.js';
import { progressBar } from './progressBar.js';
import type { RunProgress } from './runProgress.js';
import { formatElapsed, formatTokens, oneLine } from './units.js';
import { visibleLine } from './visibleText.js';

const phaseLabels: Record<Phase, string> = {
  research: 'Research: analyzing files…',
  plan: 'Plan: planning approach…',
  implement: 'Implement: working…',
  summary: 'Summary: summarizing results…',
};

/** The phase text keeps at least this much room before the progress bar is dropped. */
const minimumHead = 20;

/** What the run is doing, e.g. "Implement: step 3/12: Parse statement"; the label (the model's) stays on its line, its controls shown. */
export function phaseText(progress: Pick<RunProgress, 'phase' | 'step'>): string {
  if (progress.phase === null) return 'Starting…';
  if (progress.phase === 'implement' && progress.step) return `Implement: step ${progress.step.current}/${progress.step.total}: ${visibleLine(progress.step.label)}`;
  return phaseLabels[progress.phase];
}

/** A step's line: "Plan: planning approach… · o3", naming the model the phase runs on (Settings may give each phase its own). */
export function stepLine(progress: Pick<RunProgress, 'phase' | 'step' | 'phaseModel'>): string {
  return progress.phaseModel ? `${phaseText(progress)} · ${visibleLine(progress.phaseModel)}` : phaseText(progress);
}

/**
 * The live status line: phase (and step), a bar over the plan's items once there is a plan, elapsed
 * time and tokens used — never wider than `columns - 1` (a full-width line would wrap and could not be
 * rewritten in place). When it does not fit, the bar goes first, then the end of the step label.
 */
export function formatStatusLine(progress: RunProgress, elapsedMs: number, columns: number): string {
  const head = progress.model ? `${phaseText(progress)} — ${progress.model}` : phaseText(progress);
  const numbers = [formatElapsed(elapsedMs), formatTokens(progress.tokens)];
  const bar = progress.items.total > 0 ? [progressBar(progress.items.finished, progress.items.total)] : [];
  const width = columns - 1;
  for (const tail of [[...bar, ...numbers].join(' · '), numbers.join(' · ')]) {
    const room = width - tail.length - 3;
    if (room >= Math.min(head.length, minimumHead)) return `${oneLine(head, room)} · ${tail}`;
  }
  return oneLine(`${head} · ${numbers.join(' · ')}`, width);
}
