import { useId, useState } from 'react';
import type { PlanItem } from '../../../../engine/contract/index.js';
import type { ContextNote, ToolActivity } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { ActivityEntry } from './ActivityEntry.js';
import { activityRows, groupActivity, type ActivityGroup } from './activityGroups.js';
import { contextNoteText } from './contextNoteText.js';

const noActivity: ToolActivity[] = [];
const noItems: PlanItem[] = [];
const noNotes: ContextNote[] = [];

/** Every tool call of the run, grouped by phase and plan step; the latest group is open until the user chooses. */
export function ActivityFeed() {
  const activity = useWorkbench((state) => state.run?.activity ?? noActivity);
  const items = useWorkbench((state) => state.run?.items ?? noItems);
  const notes = useWorkbench((state) => state.run?.contextNotes ?? noNotes);
  const titleId = useId();
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const groups = groupActivity(activity, items, notes);
  const latest = groups.at(-1)?.key;
  return (
    <section className="run-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="run-section-title">
        Activity <span className="muted">({activity.length === 1 ? '1 tool call' : `${activity.length} tool calls`})</span>
      </h3>
      {groups.length === 0 ? (
        <p className="muted run-note">Each file the agent reads and each change it makes shows here.</p>
      ) : (
        <ul className="activity-feed" data-testid="activity-feed">
          {groups.map((group) => (
            <Group key={group.key} group={group} open={chosen[group.key] ?? group.key === latest} onToggle={(open) => setChosen({ ...chosen, [group.key]: open })} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Group({ group, open, onToggle }: { group: ActivityGroup; open: boolean; onToggle: (open: boolean) => void }) {
  const listId = `${useId()}-entries`;
  return (
    <li className="activity-group" data-group={group.key}>
      <button type="button" className="activity-toggle" aria-expanded={open} aria-controls={open ? listId : undefined} onClick={() => onToggle(!open)}>
        <span className="activity-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="activity-group-title">{group.title}</span>
        <span className="muted">
          {group.entries.length}
          {group.failed > 0 && `, ${group.failed} failed`}
          {group.running && ', running'}
        </span>
      </button>
      {open && (
        <ol id={listId} className="activity-entries">
          {activityRows(group).map((row) =>
            row.kind === 'call' ? (
              <ActivityEntry key={row.key} entry={row.entry} />
            ) : (
              <li key={row.key} className="activity-note" data-testid="context-note">
                {contextNoteText(row.note)}
              </li>
            ),
          )}
        </ol>
      )}
    </li>
  );
}
