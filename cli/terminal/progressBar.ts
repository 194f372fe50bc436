/** A bar over the plan's items, e.g. `[████░░░░░░░░] 4/12`; finished items (done or failed) fill it. */
export function progressBar(finished: number, total: number, width = 12): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, finished / total)) : 0;
  const filled = Math.round(ratio * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${finished}/${total}`;
}
