import { visibleLine } from './visibleText.js';

/** Elapsed time the way a status line shows it: "9s", "1m 05s", "2h 03m". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** A tool call's duration: "12 ms", "1.3 s", "2m 05s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return formatElapsed(ms);
}

/** Token counts: "850 tokens", "12.3k tokens", "1.2M tokens". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} tokens`;
  if (tokens < 1_000_000) return `${trimmed(tokens / 1000)}k tokens`;
  return `${trimmed(tokens / 1_000_000)}M tokens`;
}

function trimmed(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
}

/** One line of at most `width` characters, whitespace runs (line breaks too) collapsed, other controls shown (visibleLine), cut with "…". */
export function oneLine(text: string, width: number): string {
  const flat = visibleLine(text.replace(/\s+/g, ' ').trim());
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}
