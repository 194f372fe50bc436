import type { Snapshot, WorkbenchEvent } from '../../../engine/contract/index.js';
import { applyEvent } from './applyEvent.js';
import { applySnapshot, type WorkbenchState } from './state.js';

/**
 * The events that arrive while a snapshot is on its way. The engine takes a snapshot when the request
 * reaches it, so by the time it is drawn the page may already have applied events after its `lastSeq`;
 * drawn alone it would take the page back, and with no further event to show a gap (a run waiting on the
 * model), the page would stay behind. So each snapshot is drawn with the events heard since it was asked
 * for applied over it (`applyEvent` skips those it already holds).
 */
export class EventsMeanwhile {
  private asking = 0;
  private heardEvents: WorkbenchEvent[] = [];

  /** Every event the page receives, as it arrives. */
  heard(event: WorkbenchEvent): void {
    if (this.asking > 0) this.heardEvents.push(event);
  }

  /** Asks for a snapshot; returns it with the events heard while it was on its way. */
  async during<T>(ask: () => Promise<T>): Promise<{ value: T; meanwhile: WorkbenchEvent[] }> {
    this.asking += 1;
    const from = this.heardEvents.length;
    try {
      const value = await ask();
      return { value, meanwhile: this.heardEvents.slice(from) };
    } finally {
      this.asking -= 1;
      if (this.asking === 0) this.heardEvents = [];
    }
  }
}

/** The state a snapshot draws, brought up to date with the events heard while it was on its way (none without a folder). */
export function snapshotWithEvents(state: WorkbenchState, snapshot: Snapshot | null, meanwhile: readonly WorkbenchEvent[]): WorkbenchState {
  const drawn = applySnapshot(state, snapshot);
  return snapshot === null ? drawn : meanwhile.reduce(applyEvent, drawn);
}
