import { useId } from 'react';
import type { PlanItem } from '../../../../engine/contract/index.js';
import { checklistStatus } from '../../store/runStatus.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { CheckMark } from './CheckMark.js';

type ChecklistStatus = ReturnType<typeof checklistStatus>;

const marks: Record<ChecklistStatus, string> = { pending: '○', running: '◐', done: '✓', failed: '✗' };
const words: Record<ChecklistStatus, string> = { pending: 'to do', running: 'working on it', done: 'done', failed: 'failed' };

/** The plan's steps, live: to do, being worked on, done, or failed with the reason. */
export function PlanChecklist() {
  const titleId = useId();
  const runItems = useWorkbench((state) => state.run?.items);
  const runningItem = useWorkbench((state) => state.run?.runningItem ?? null);
  const savedItems = useWorkbench((state) => state.rpi.items);
  const finalCheck = useWorkbench((state) => state.rpi.finalCheck);
  const items = runItems ?? savedItems;
  return (
    <section className="run-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="run-section-title">
        Plan
      </h3>
      {items.length === 0 ? (
        <p className="muted run-note">The plan’s steps show here once it is written.</p>
      ) : (
        <ol className="plan-checklist" data-testid="plan-checklist">
          {items.map((item) => (
            <ChecklistItem key={item.index} item={item} status={checklistStatus({ runningItem }, item)} />
          ))}
        </ol>
      )}
      {finalCheck && <CheckMark result={finalCheck} whole />}
    </section>
  );
}

/** One step with its mark (to do, working, done, failed with the reason) and its check's. */
export function ChecklistItem({ item, status }: { item: PlanItem; status: ChecklistStatus }) {
  return (
    <li className={`plan-item plan-item-${status}`} data-status={status} aria-current={status === 'running' ? 'step' : undefined}>
      <span className="plan-item-mark" aria-hidden="true">
        {marks[status]}
      </span>
      <div className="plan-item-text">
        <span className="plan-item-label">
          {item.number}. {item.label}
          <span className="visually-hidden"> ({words[status]})</span>
        </span>
        {item.description && <span className="plan-item-description">{item.description}</span>}
        {status === 'failed' && <span className="plan-item-failure">Failed: {item.failure ?? 'no reason was given'}</span>}
        <CheckMark result={item.checkResult} command={item.check} />
      </div>
    </li>
  );
}
