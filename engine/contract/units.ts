/** Quantities as a message to a person says them. */

/** 1536 → "1.5 KB"; exact bytes under 1 KB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A duration: "1 second", "0.25 seconds", "1.5 seconds", "90 seconds". */
export function formatSeconds(ms: number): string {
  const seconds = Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1));
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
