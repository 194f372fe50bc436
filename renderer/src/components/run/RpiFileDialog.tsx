import { useId } from 'react';
import type { PlanItem } from '../../../../engine/contract/index.js';
import { Markdown } from '../chat/Markdown.js';
import { useModalDialog } from '../useModalDialog.js';
import { ChecklistItem } from './PlanChecklist.js';
import './run.css';

export type RpiFile = 'research' | 'plan';

const titles: Record<RpiFile, string> = { research: 'Research notes (research.md)', plan: 'Plan (plan.md)' };

const notWritten: Record<RpiFile, string> = {
  research: 'Research has not been written yet for this request.',
  plan: 'No plan has been written yet for this request.',
};

interface RpiFileDialogProps {
  file: RpiFile;
  /** undefined while loading, null when there is none to show. */
  text: string | null | undefined;
  /** Why there is none to show (not written yet, not kept, refused); a default sentence when absent. */
  reason?: string;
  /** The plan's steps as the engine parsed them: shown with their outcomes above the file. */
  items?: PlanItem[];
  /** Which request the file belongs to, for a file of an earlier request. */
  request?: string;
  onClose: () => void;
}

/** research.md or plan.md in a modal dialog (Esc closes it): a plan's steps with their outcomes, then the file as written. */
export function RpiFileDialog({ file, text, reason, items, request, onClose }: RpiFileDialogProps) {
  const titleId = useId();
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="rpi-file-dialog" aria-labelledby={titleId} onClose={onClose} data-testid="rpi-file-dialog">
      <header className="rpi-file-header">
        <div className="rpi-file-title">
          <h2 id={titleId}>{titles[file]}</h2>
          {request !== undefined && <p className="muted rpi-file-request">For the request “{request}”</p>}
        </div>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="rpi-file-body">
        {text === undefined ? (
          <p className="muted">Loading…</p>
        ) : text === null ? (
          <p className="muted">{reason ?? notWritten[file]}</p>
        ) : items && items.length > 0 ? (
          <>
            <ol className="plan-checklist rpi-file-outcomes" data-testid="plan-outcomes" aria-label="Steps and their outcomes">
              {items.map((item) => (
                <ChecklistItem key={item.index} item={item} status={item.status} />
              ))}
            </ol>
            <details className="rpi-file-source">
              <summary>plan.md as written</summary>
              <Markdown text={text} />
            </details>
          </>
        ) : (
          <Markdown text={text} />
        )}
      </div>
    </dialog>
  );
}
