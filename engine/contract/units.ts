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

/** A duration: "1 second", "0.25 seconds", "90 seconds". */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return seconds === 1 ? '1 second' : `${Number(seconds.toFixed(seconds < 1 ? 2 : 0))} seconds`;
}
