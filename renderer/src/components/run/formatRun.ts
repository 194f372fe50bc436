const numbers = new Intl.NumberFormat('en-US');

/** "12,345". */
export const formatCount = (value: number): string => numbers.format(value);

/** A clock reading of a span: "0:07", "12:34", "1:02:03". */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** How long a tool call took: "12 ms", "1.4 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const argumentKeys = ['command', 'path', 'pattern', 'id'] as const;

/** A tool call's arguments in one short line: the command, path or pattern it names, else compact JSON. */
export function shortArgs(args: Record<string, unknown>, max = 80): string {
  const { from, to } = args;
  const named = typeof from === 'string' && typeof to === 'string' ? `${from} → ${to}` : argumentKeys.map((key) => args[key]).find((value) => typeof value === 'string' || typeof value === 'number');
  const text = named === undefined ? JSON.stringify(args) : String(named);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
