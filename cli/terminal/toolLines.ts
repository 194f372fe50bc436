import { formatDuration, oneLine } from './units.js';
import { terminalJson, visibleLine } from './visibleText.js';

const argWidth = 60;

/**
 * The argument that says what a call does: its command, path, move, pattern — else its arguments as JSON.
 * A line break in it is shown (␊), not folded into a space: `ls␊rm -rf ~` is two commands.
 */
export function shortArgs(args: Record<string, unknown>, width = argWidth): string {
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : null);
  const from = text('from');
  const to = text('to');
  const main = text('command') ?? text('path') ?? (from !== null && to !== null ? `${from} → ${to}` : null) ?? text('pattern');
  if (main !== null) return oneLine(visibleLine(main), width);
  const json = terminalJson(args);
  return json === '{}' ? '' : oneLine(json, width);
}

/** A tool call in a few words: `write_file notes.txt`, `run_command npm test`, `get_file_map`. */
export function describeCall(tool: string, args: Record<string, unknown>, width = argWidth): string {
  return [tool, shortArgs(args, width)].filter(Boolean).join(' ');
}

export interface FinishedTool {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  durationMs: number;
  /** The result's summary; shown for a failure. */
  summary: string;
}

/** One line of tool activity: `  ✓ write_file notes.txt (12 ms)`, or `  ✗ run_command npm test (1.2 s): exit code 1`. */
export function formatToolLine({ tool, args, ok, durationMs, summary }: FinishedTool): string {
  const line = `  ${ok ? '✓' : '✗'} ${describeCall(tool, args)} (${formatDuration(durationMs)})`;
  return ok ? line : `${line}: ${oneLine(summary, 100)}`;
}
