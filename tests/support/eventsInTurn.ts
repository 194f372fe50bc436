import type { EventOf, WorkbenchEvent, WorkbenchEventType } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';

/**
 * The events of one type in turn: each call resolves with the next one (one already emitted and not yet
 * taken, or the next to come). `events` is what recordEvents(workbench) keeps.
 */
export function eventsInTurn<T extends WorkbenchEventType>(workbench: Pick<Workbench, 'subscribe'>, events: readonly WorkbenchEvent[], type: T) {
  let taken = 0;
  const emitted = () => events.filter((event): event is EventOf<T> => event.type === type);
  return async (): Promise<EventOf<T>> => {
    if (emitted().length <= taken) {
      await new Promise<void>((resolve) => {
        const stop = workbench.subscribe((event) => {
          if (event.type !== type) return;
          stop();
          resolve();
        });
      });
    }
    return emitted()[taken++]!;
  };
}
