import type { UnsequencedEvent, WorkbenchEvent } from '../contract/index.js';

export type EventListener = (event: WorkbenchEvent) => void;

/** Stamps each event with the next sequence number and hands it to every subscriber, in order. */
export class EventBus {
  private seq = 0;
  private readonly listeners = new Set<EventListener>();

  get lastSeq(): number {
    return this.seq;
  }

  emit(event: UnsequencedEvent): WorkbenchEvent {
    this.seq += 1;
    const stamped = { ...event, seq: this.seq } as WorkbenchEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(stamped);
      } catch (error) {
        // One faulty subscriber (a closed window, a broken socket) must not starve the others.
        console.error('workbench: event listener failed:', error);
      }
    }
    return stamped;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.listeners.clear();
  }
}
