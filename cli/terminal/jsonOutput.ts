import type { WorkbenchEvent } from '../../engine/contract/index.js';
import type { RunOutput } from './runOutput.js';
import type { ShownStream } from './shownStream.js';
import { terminalJson } from './visibleText.js';

/**
 * `--json`: every event exactly as the engine emitted it, one per line; stdout carries nothing else.
 * JSON.parse gives back the very event; no control character in it reaches a terminal raw.
 */
export function jsonOutput(stdout: ShownStream): RunOutput {
  return {
    handle: (event: WorkbenchEvent) => stdout.text(`${terminalJson(event)}\n`),
    finish: () => {},
  };
}
