import { lazy, Suspense, useEffect, useState } from 'react';
import { describeTotals } from '../../../../engine/contract/changes.js';
import type { Message } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import './changes.css';

// The Changes view and its diff drawing load the first time one is opened, keeping them out of the first paint.
const ChangesDialog = lazy(() => import('./ChangesDialog.js'));

/** "3 files changed (+12 −4)" under a request, opening its Changes view; counted once shown, kept current by the engine's events. */
export function ChangesLine({ message }: { message: Message }) {
  const totals = useWorkbench((state) => state.changeTotals[message.id]);
  const live = useWorkbench((state) => state.running && state.run?.messageId === message.id);
  const loadChangeTotals = useWorkbench((state) => state.loadChangeTotals);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (totals === undefined) void loadChangeTotals(message.id);
  }, [totals, message.id, loadChangeTotals]);
  if (totals === null) return null;
  const words = totals === undefined ? 'Counting changed files…' : `${describeTotals(totals)}${live ? (totals.files > 0 ? ' so far' : ' yet') : ''}`;
  return (
    <div className="changes-line" data-testid="changes-line">
      {totals && totals.files > 0 ? (
        <button type="button" className="button-quiet button-small changes-open" onClick={() => setOpen(true)} title="Show the files this request changed, with their diffs">
          {words}
        </button>
      ) : (
        <span className="muted">{words}</span>
      )}
      {open && (
        <Suspense fallback={<span className="muted">Opening…</span>}>
          <ChangesDialog message={message} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
