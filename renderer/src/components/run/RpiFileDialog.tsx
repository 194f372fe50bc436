import { useId } from 'react';
import { Markdown } from '../chat/Markdown.js';
import { useModalDialog } from '../useModalDialog.js';

export type RpiFile = 'research' | 'plan';

const titles: Record<RpiFile, string> = { research: 'Research notes (research.md)', plan: 'Plan (plan.md)' };

/** research.md or plan.md in a modal dialog (Esc closes it); `text` is undefined while loading, null when not written. */
export function RpiFileDialog({ file, text, onClose }: { file: RpiFile; text: string | null | undefined; onClose: () => void }) {
  const titleId = useId();
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="rpi-file-dialog" aria-labelledby={titleId} onClose={onClose} data-testid="rpi-file-dialog">
      <header className="rpi-file-header">
        <h2 id={titleId}>{titles[file]}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="rpi-file-body">
        {text === undefined ? (
          <p className="muted">Loading…</p>
        ) : text === null ? (
          <p className="muted">{file === 'research' ? 'Research has not been written yet for this request.' : 'No plan has been written yet for this request.'}</p>
        ) : (
          <Markdown text={text} />
        )}
      </div>
    </dialog>
  );
}
