import { describe, expect, it, vi } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import { EventBus } from '../../../engine/workbench/eventBus.js';

describe('EventBus', () => {
  it('stamps events with increasing seq and delivers them in order', () => {
    const bus = new EventBus();
    const seen: WorkbenchEvent[] = [];
    bus.subscribe((event) => seen.push(event));

    bus.emit({ type: 'run-started', runId: 'r1', messageId: 'm1', startedAt: 1_000 });
    bus.emit({ type: 'phase-started', runId: 'r1', phase: 'research' });
    const last = bus.emit({ type: 'run-finished', finishedAt: 2_000, runId: 'r1', status: 'done' });

    expect(seen.map((event) => [event.seq, event.type])).toEqual([
      [1, 'run-started'],
      [2, 'phase-started'],
      [3, 'run-finished'],
    ]);
    expect(last).toEqual({ type: 'run-finished', finishedAt: 2_000, runId: 'r1', status: 'done', seq: 3 });
    expect(bus.lastSeq).toBe(3);
  });

  it('keeps counting for late subscribers and stops delivering after unsubscribe', () => {
    const bus = new EventBus();
    bus.emit({ type: 'warning', runId: null, message: 'before' });
    const early: number[] = [];
    const late: number[] = [];
    const unsubscribe = bus.subscribe((event) => early.push(event.seq));
    bus.emit({ type: 'warning', runId: null, message: 'both' });
    bus.subscribe((event) => late.push(event.seq));
    unsubscribe();
    bus.emit({ type: 'warning', runId: null, message: 'late only' });

    expect(early).toEqual([2]);
    expect(late).toEqual([3]);
  });

  it('a throwing subscriber does not starve the others', () => {
    const bus = new EventBus();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('window closed');
    });
    bus.subscribe((event) => seen.push(event.seq));

    expect(() => bus.emit({ type: 'warning', runId: null, message: 'x' })).not.toThrow();
    expect(seen).toEqual([1]);
    expect(logged).toHaveBeenCalledWith('workbench: event listener failed:', expect.objectContaining({ message: 'window closed' }));
    logged.mockRestore();
  });

  it('a subscriber that unsubscribes another mid-emit does not disturb this round', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    let unsubscribeSecond: () => void = () => undefined;
    bus.subscribe(() => {
      seen.push('first');
      unsubscribeSecond();
    });
    unsubscribeSecond = bus.subscribe(() => seen.push('second'));

    bus.emit({ type: 'warning', runId: null, message: 'one' });
    bus.emit({ type: 'warning', runId: null, message: 'two' });
    expect(seen).toEqual(['first', 'second', 'first']);
  });

  it('clear() drops every subscriber', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    bus.subscribe((event) => seen.push(event.seq));
    bus.clear();
    bus.emit({ type: 'warning', runId: null, message: 'x' });
    expect(seen).toEqual([]);
  });
});
