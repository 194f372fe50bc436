import type { UnsequencedEvent, WorkbenchEvent } from '../../engine/contract/index.js';

/** Stamps events with increasing seqs and hands them to `log`, as the workbench's bus does; returns them stamped. */
export function eventFeeder(log: { record(event: WorkbenchEvent): void }) {
  let seq = 0;
  return (...events: UnsequencedEvent[]): WorkbenchEvent[] =>
    events.map((event) => {
      const stamped = { ...event, seq: (seq += 1) } as WorkbenchEvent;
      log.record(stamped);
      return stamped;
    });
}
