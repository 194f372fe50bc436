import { useWorkbench } from '../../store/StoreContext.js';
import { formatClock } from './formatRun.js';
import { useNow } from './useNow.js';

/** How long the run has been going (ticking), or how long it took; nothing when its start is unknown. */
export function ElapsedTime() {
  const startedAt = useWorkbench((state) => state.run?.startedAt ?? null);
  const finishedAt = useWorkbench((state) => state.run?.finishedAt ?? null);
  const running = useWorkbench((state) => state.run?.status === 'running');
  const now = useNow(running && startedAt !== null);
  const end = running ? now : finishedAt;
  if (startedAt === null || end === null) return null;
  const elapsed = formatClock(end - startedAt);
  return (
    <span className="run-elapsed" data-testid="run-elapsed">
      {running ? `Elapsed ${elapsed}` : `Took ${elapsed}`}
    </span>
  );
}
