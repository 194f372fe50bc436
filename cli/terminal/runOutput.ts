import type { WorkbenchEvent } from '../../engine/contract/index.js';
import type { RunResult } from '../../engine/index.js';

/** How a run is shown: human progress (humanOutput.ts) or one JSON event per line (jsonOutput.ts). */
export interface RunOutput {
  handle(event: WorkbenchEvent): void;
  /** The run has finished (null: it never started): print what is left (the summary, a last line), stop any timer. */
  finish(result: RunResult | null): void;
}
