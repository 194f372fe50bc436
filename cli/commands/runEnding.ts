import { quote } from 'shell-quote';
import type { RunResult } from '../../engine/index.js';

/** The command that goes on with the folder's stopped run. */
export function resumeCommand(folder: string): string {
  return `rpi-workbench resume ${quote([folder])}`;
}

export const cancelledLine = (resume: string) => `Cancelled; the run is resumable: ${resume}`;

/** The last lines on stderr for a run that did not finish: what stopped it and how to go on. */
export function endingLines(result: RunResult, { interrupted, resume }: { interrupted: boolean; resume: string }): string[] {
  if (result.status === 'done') return [];
  if (result.status === 'cancelled' && interrupted) return [cancelledLine(resume)];
  const where = result.phase ? ` in ${result.phase}` : '';
  const what = result.status === 'failed' ? `The run failed${where}: ${result.error ?? 'no reason given'}` : (result.error ?? `The run stopped${where}.`);
  return [`rpi-workbench: ${what}`, `Resume with: ${resume}`];
}
