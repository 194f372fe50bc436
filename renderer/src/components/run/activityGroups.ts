import type { PlanItem } from '../../../../engine/contract/index.js';
import { phaseNames } from '../../store/runStatus.js';
import type { ToolActivity } from '../../store/runView.js';

export interface ActivityGroup {
  key: string;
  title: string;
  entries: ToolActivity[];
  failed: number;
  running: boolean;
}

function groupOf(entry: ToolActivity, items: readonly PlanItem[]): { key: string; title: string } {
  if (entry.phase === null) return { key: 'none', title: 'Before the first phase' };
  if (entry.phase !== 'implement' || entry.itemIndex === null) return { key: entry.phase, title: phaseNames[entry.phase] };
  const item = items.find((candidate) => candidate.index === entry.itemIndex);
  return { key: `implement-${entry.itemIndex}`, title: `Step ${entry.itemIndex + 1}${item ? `: ${item.label}` : ''}` };
}

/** Tool calls grouped by phase, and in Implement by plan item, in the order the groups began. */
export function groupActivity(activity: readonly ToolActivity[], items: readonly PlanItem[]): ActivityGroup[] {
  const groups = new Map<string, ActivityGroup>();
  for (const entry of activity) {
    const { key, title } = groupOf(entry, items);
    const group = groups.get(key) ?? { key, title, entries: [], failed: 0, running: false };
    group.entries.push(entry);
    if (entry.status === 'failed') group.failed += 1;
    if (entry.status === 'running') group.running = true;
    groups.set(key, group);
  }
  return [...groups.values()];
}
