import type { PlanItem } from '../../../../engine/contract/index.js';
import { phaseNames } from '../../store/runStatus.js';
import type { ContextNote, ToolActivity } from '../../store/runView.js';

export interface ActivityGroup {
  key: string;
  title: string;
  entries: ToolActivity[];
  /** Requests fitted to the context budget while this group ran. */
  notes: ContextNote[];
  failed: number;
  running: boolean;
}

function groupOf(entry: Pick<ToolActivity, 'phase' | 'itemIndex'>, items: readonly PlanItem[]): { key: string; title: string } {
  if (entry.phase === null) return { key: 'none', title: 'Before the first phase' };
  if (entry.phase !== 'implement' || entry.itemIndex === null) return { key: entry.phase, title: phaseNames[entry.phase] };
  const item = items.find((candidate) => candidate.index === entry.itemIndex);
  return { key: `implement-${entry.itemIndex}`, title: `Step ${entry.itemIndex + 1}${item ? `: ${item.label}` : ''}` };
}

/** Tool calls (and context notes) grouped by phase, and in Implement by plan item, in the order the groups began. */
export function groupActivity(activity: readonly ToolActivity[], items: readonly PlanItem[], notes: readonly ContextNote[] = []): ActivityGroup[] {
  const groups = new Map<string, ActivityGroup>();
  const groupFor = (of: Pick<ToolActivity, 'phase' | 'itemIndex'>) => {
    const { key, title } = groupOf(of, items);
    const group = groups.get(key) ?? { key, title, entries: [], notes: [], failed: 0, running: false };
    groups.set(key, group);
    return group;
  };
  for (const entry of activity) {
    const group = groupFor(entry);
    group.entries.push(entry);
    if (entry.status === 'failed') group.failed += 1;
    if (entry.status === 'running') group.running = true;
  }
  for (const note of notes) groupFor(note).notes.push(note);
  return [...groups.values()];
}

export type ActivityRow = { kind: 'call'; key: string; entry: ToolActivity } | { kind: 'note'; key: string; note: ContextNote };

/** A group's lines in order: each context note after the tool call it followed (first when that call is elsewhere). */
export function activityRows(group: ActivityGroup): ActivityRow[] {
  const calls = new Set(group.entries.map((entry) => entry.callId));
  const notes = group.notes.map((note, position) => ({ kind: 'note' as const, key: `note-${position}`, note }));
  const after = (callId: string | null) => notes.filter((row) => row.note.afterCallId === callId);
  return [
    ...notes.filter((row) => row.note.afterCallId === null || !calls.has(row.note.afterCallId)),
    ...group.entries.flatMap((entry) => [{ kind: 'call' as const, key: entry.callId, entry }, ...after(entry.callId)]),
  ];
}
