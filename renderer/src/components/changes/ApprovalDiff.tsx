import { lazy, Suspense, useEffect, useState } from 'react';
import { describeFileChange, type ApprovalPreview } from '../../../../engine/contract/changes.js';
import type { ApprovalCardState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { FileChangeTitle } from './FileChangeTitle.js';
import './changes.css';

const DiffView = lazy(() => import('./DiffView.js').then((module) => ({ default: module.DiffView })));

/** Tools whose card shows the diff of what they would change. */
const previewed = new Set(['write_file', 'edit_file', 'delete_file', 'move_file']);
/** An edit of the arguments is previewed once the typing pauses this long. */
const typingPause = 250;

interface ApprovalDiffProps {
  card: ApprovalCardState;
  /** Arguments being edited (valid JSON so far); undefined: the request's own. */
  draftArgs?: Record<string, unknown>;
}

/**
 * What an approval would change, as diffs, asked from the engine while the card waits: again for each
 * edit of the arguments, so what is approved is what was seen. An answered card keeps the last one, folded.
 */
export function ApprovalDiff({ card, draftArgs }: ApprovalDiffProps) {
  const previewApproval = useWorkbench((state) => state.previewApproval);
  const [shown, setShown] = useState<{ preview: ApprovalPreview; edited: boolean } | { error: string } | null>(null);
  const pending = card.status === 'pending';
  const wanted = previewed.has(card.tool) && pending;
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    const timer = setTimeout(
      () =>
        void previewApproval(card.requestId, draftArgs).then((response) => {
          if (current) setShown(response.ok ? { preview: response.value, edited: draftArgs !== undefined } : { error: response.error });
        }),
      draftArgs === undefined ? 0 : typingPause,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [wanted, previewApproval, card.requestId, draftArgs]);

  if (!previewed.has(card.tool) || shown === null) return wanted ? <p className="muted diff-note">Working out what this would change…</p> : null;
  if ('error' in shown) return pending ? <p className="form-error">{shown.error}</p> : null;
  const body = <PreviewFiles preview={shown.preview} />;
  if (pending) {
    return (
      <section className="approval-diff" data-testid="approval-diff" aria-label="What this would change">
        {shown.edited && <p className="approval-args-label">With your edited arguments:</p>}
        {body}
      </section>
    );
  }
  return (
    <details className="approval-diff" data-testid="approval-diff">
      <summary className="approval-args-label">What it would have changed</summary>
      {body}
    </details>
  );
}

function PreviewFiles({ preview }: { preview: ApprovalPreview }) {
  if (preview.problem !== null) return <p className="run-card-warning">This call would fail as asked: {preview.problem}</p>;
  return (
    <>
      {preview.files.map((file) => (
        <div key={`${file.oldPath ?? ''}>${file.path}`} className="approval-diff-file">
          <p className="rewind-file-line">
            <FileChangeTitle change={file} />
            {(file.status !== 'modified' || file.binary) && <span className="muted">{describeFileChange(file)}</span>}
          </p>
          <Suspense fallback={<p className="muted diff-note">Loading the diff…</p>}>
            <DiffView diff={file} maxHeight={320} />
          </Suspense>
        </div>
      ))}
      {preview.more > 0 && <p className="muted">…and {preview.more.toLocaleString('en-US')} more files.</p>}
    </>
  );
}
