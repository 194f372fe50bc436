import type { EventOf, WorkbenchEvent } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';

/**
 * Resolves with the next approval request (or one already emitted and not yet taken); fails at once when
 * the run ends without one. `events` is the recording of the workbench's events (recordEvents).
 */
export function approvalQueue(workbench: Workbench, events: WorkbenchEvent[]): () => Promise<EventOf<'approval-requested'>> {
  let taken = 0;
  return async () => {
    const requested = () => events.filter((event): event is EventOf<'approval-requested'> => event.type === 'approval-requested');
    if (requested().length <= taken) {
      if (events.some((event) => event.type === 'run-finished')) throw new Error('The run finished without asking for approval.');
      await new Promise<void>((resolve, reject) => {
        const stop = workbench.subscribe((event) => {
          if (event.type !== 'approval-requested' && event.type !== 'run-finished') return;
          stop();
          if (event.type === 'approval-requested') resolve();
          else reject(new Error('The run finished without asking for approval.'));
        });
      });
    }
    return requested()[taken++]!;
  };
}
