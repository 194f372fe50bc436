import { useWorkbench } from '../../store/StoreContext.js';
import { ElapsedTime } from './ElapsedTime.js';

/** The status line (announced politely as it changes), the elapsed time, and what the run waits for. */
export function RunStatus() {
  const statusLine = useWorkbench((state) => state.run?.statusLine ?? '');
  const status = useWorkbench((state) => state.run?.status);
  const error = useWorkbench((state) => state.run?.error ?? null);
  const waiting = useWorkbench((state) => state.run?.approvals.filter((card) => card.status === 'pending').length ?? 0);
  const asking = useWorkbench((state) => state.run?.questions.some((card) => card.status === 'pending') ?? false);
  const failedSteps = useWorkbench((state) => (state.running ? 0 : state.rpi.items.filter((item) => item.status === 'failed').length));
  const retryFailed = useWorkbench((state) => state.retryFailed);
  return (
    <div className={`run-status run-status-${status ?? 'none'}`}>
      <div className="run-status-row">
        <p className="run-status-line" role="status" aria-live="polite" data-testid="status-line">
          {status === 'running' && <span className="run-spinner" aria-hidden="true" />}
          {statusLine}
        </p>
        <ElapsedTime />
      </div>
      {status === 'running' && waiting > 0 && (
        <p className="run-waiting">{waiting === 1 ? 'An action waits for your approval in the chat.' : `${waiting} actions wait for your approval in the chat.`}</p>
      )}
      {status === 'running' && asking && <p className="run-waiting">The model waits for your answer to its question in the chat.</p>}
      {status !== 'running' && error && (
        <p className="run-error" data-testid="run-error">
          {error}
        </p>
      )}
      {status !== 'running' && failedSteps > 0 && (
        <button type="button" className="button-quiet align-start" data-testid="retry-failed" onClick={() => void retryFailed()}>
          Retry failed steps ({failedSteps})
        </button>
      )}
    </div>
  );
}
