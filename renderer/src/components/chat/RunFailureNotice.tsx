import type { Phase } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';

const phaseName: Record<Phase, string> = { research: 'research', plan: 'planning', implement: 'implementation', summary: 'the summary' };

/** Why the last run failed, in the chat where its answer would have been, with Retry when it can go on. */
export function RunFailureNotice() {
  const failed = useWorkbench((state) => state.run?.status === 'failed');
  const error = useWorkbench((state) => state.run?.error ?? null);
  const phase = useWorkbench((state) => state.run?.stoppedIn ?? null);
  const resumable = useWorkbench((state) => state.resumable);
  const resume = useWorkbench((state) => state.resume);
  if (!failed) return null;
  return (
    <div className="message message-failure" role="alert" data-testid="run-failure">
      <span className="message-role">The run failed{phase ? ` during ${phaseName[phase]}` : ''}</span>
      <p className="message-plain">{error ?? 'The run stopped without saying why.'}</p>
      {resumable && (
        <div className="row">
          <button type="button" onClick={() => void resume()}>
            Retry
          </button>
          <span className="muted">Goes on from the step that failed; finished steps are kept.</span>
        </div>
      )}
    </div>
  );
}
