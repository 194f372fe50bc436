import { useState } from 'react';
import type { RpiState } from '../../../engine/contract/index.js';
import { useWorkbench } from '../store/StoreContext.js';

/** "Resume (step 4 of 12)" from the first pending plan item; just "Resume" before there is a plan to step through. */
function resumeLabel(rpi: RpiState): string {
  const next = rpi.items.findIndex((item) => item.status === 'pending');
  return next < 0 ? 'Resume' : `Resume (step ${next + 1} of ${rpi.items.length})`;
}

/** Offers to go on with, or forget, a run that stopped before answering its request. */
export function ResumeBanner() {
  const resumable = useWorkbench((state) => state.resumable);
  const running = useWorkbench((state) => state.running);
  const rpi = useWorkbench((state) => state.rpi);
  const resume = useWorkbench((state) => state.resume);
  const discard = useWorkbench((state) => state.discard);
  const [busy, setBusy] = useState(false);
  if (!resumable || running) return null;

  const perform = async (action: () => Promise<unknown>) => {
    setBusy(true);
    await action();
    setBusy(false);
  };

  return (
    <div className="banner banner-info" role="region" aria-label="Stopped run" data-testid="resume-banner">
      <span>The last request stopped before it was finished. Go on from where it stopped, or discard it and keep the files as they are.</span>
      <span className="row">
        <button type="button" className="button-primary" disabled={busy} onClick={() => void perform(resume)}>
          {resumeLabel(rpi)}
        </button>
        <button type="button" disabled={busy} onClick={() => void perform(discard)}>
          Discard
        </button>
      </span>
    </div>
  );
}
