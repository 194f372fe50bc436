import type { WorkbenchEvent } from '../../engine/contract/index.js';
import type { RunOutput } from './runOutput.js';

/** `--json`: every event exactly as the engine emitted it, one per line; stdout carries nothing else. */
export function jsonOutput(stdout: NodeJS.WritableStream): RunOutput {
  return {
    handle: (event: WorkbenchEvent) => void stdout.write(`${JSON.stringify(event)}\n`),
    finish: () => {},
  };
}
