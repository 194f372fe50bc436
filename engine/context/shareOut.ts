/**
 * Shares `budget` among parts that want `wants[i]` each: every part gets what it wants when all fit;
 * otherwise small parts get theirs whole and the rest is split evenly among the larger ones (water
 * filling), so one huge file cannot crowd out a short note. Returns each part's share, in order.
 */
export function shareOut(budget: number, wants: readonly number[]): number[] {
  const shares = wants.map(() => 0);
  let left = Math.max(0, budget);
  let waiting = wants.length;
  const smallestFirst = wants.map((want, index) => ({ want: Math.max(0, want), index })).sort((a, b) => a.want - b.want);
  for (const { want, index } of smallestFirst) {
    const share = Math.min(want, Math.floor(left / waiting));
    shares[index] = share;
    left -= share;
    waiting -= 1;
  }
  return shares;
}
