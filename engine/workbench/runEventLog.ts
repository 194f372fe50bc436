import type { EventOf, WorkbenchEvent, WorkbenchEventType } from '../contract/index.js';
import { shortenStrings } from './shortenStrings.js';

const defaultRunEventLimit = 5_000;

/** Events a replay needs only the latest of: each states the whole of something (the plan, the model's status). */
const latestOnly = new Set<WorkbenchEventType>(['plan-updated', 'plan-ready', 'model-status', 'context-window', 'run-usage']);

/** What a run view is drawn from (phase, plan, step, outcome): dropped for room only when nothing else is left. */
const milestones = new Set<WorkbenchEventType>(['run-started', 'phase-started', 'phase-completed', 'plan-updated', 'plan-ready', 'implement-progress', 'run-finished']);

/**
 * The events of one conversation's active or most recent run from its run-started, so a page opened or
 * reloaded during or after a run rebuilds its run view by replaying them (`Snapshot.runEvents`; see
 * ConversationRunEvents). Kept small on purpose:
 * - strings in tool arguments are cut past 400 characters ("… (N chars)");
 * - the summary's deltas are kept as one summary-delta holding their concatenation (with the latest
 *   seq), dropped once the summary's message-added arrives, since the message carries the same text;
 * - events that only restate the latest state are kept once, the latest: the plan (`plan-updated`
 *   carries every item, so keeping each version would grow with the square of a long run's length), the
 *   plan under review, what the model call is doing, the context window, the request's usage per step
 *   (kept apart, so a new one replaces the old without a pass over the run's events);
 * - past `limit` events the oldest detail events (tool calls, approvals, usage, warnings) go first, so
 *   the events that say which phase and step the run is in survive the longest.
 */
export class RunEventLog {
  private runId: string | null = null;
  private recorded: WorkbenchEvent[] = [];
  /**
   * The latest event of each latestOnly type, kept apart from `recorded` and put back in place (by seq)
   * when the events are read: a new one then replaces the old without a pass over the run's events.
   */
  private readonly latest = new Map<WorkbenchEventType, WorkbenchEvent>();
  private readonly limit: number;

  constructor(limit = defaultRunEventLimit) {
    if (!Number.isInteger(limit) || limit < 2) throw new RangeError('A run event log needs room for at least 2 events.');
    this.limit = limit;
  }

  /** Takes every event the bus emits; keeps those of the latest run. */
  record(event: WorkbenchEvent): void {
    if (event.type === 'run-started') {
      this.runId = event.runId;
      this.recorded = [event];
      this.latest.clear();
      return;
    }
    if (event.runId === null || event.runId !== this.runId) return;
    if (event.type === 'summary-delta') return this.addSummaryText(event);
    if (event.type === 'message-added' && event.message.role === 'assistant') {
      this.recorded = this.recorded.filter((recorded) => recorded.type !== 'summary-delta');
    }
    this.add(shortened(event));
  }

  /** The recorded events, oldest first (a copy). */
  events(): WorkbenchEvent[] {
    const latest = [...this.latest.values()].sort(bySeq);
    if (latest.length === 0) return [...this.recorded];
    const merged: WorkbenchEvent[] = [];
    let next = 0;
    for (const event of this.recorded) {
      while (next < latest.length && latest[next]!.seq < event.seq) merged.push(latest[next++]!);
      merged.push(event);
    }
    return merged.concat(latest.slice(next));
  }

  /** Forgets the run: after an undo, a regenerate or a discard there is no run to show. */
  clear(): void {
    this.runId = null;
    this.recorded = [];
    this.latest.clear();
  }

  private addSummaryText(event: EventOf<'summary-delta'>): void {
    const last = this.recorded.at(-1);
    if (last?.type === 'summary-delta') this.recorded[this.recorded.length - 1] = { ...last, seq: event.seq, text: last.text + event.text };
    else this.add(event);
  }

  private add(event: WorkbenchEvent): void {
    if (latestOnly.has(event.type)) this.latest.set(event.type, event);
    else this.recorded.push(event);
    if (this.recorded.length + this.latest.size > this.limit) this.dropOne();
  }

  /** Makes room: the oldest detail event goes first, then the oldest milestone; never the run-started. */
  private dropOne(): void {
    const detail = this.recorded.findIndex((recorded, index) => index > 0 && !milestones.has(recorded.type));
    const latestDetail = oldest([...this.latest.values()].filter((latest) => !milestones.has(latest.type)));
    if (detail > 0 || latestDetail) return this.dropOlder(detail > 0 ? detail : null, latestDetail);
    this.dropOlder(this.recorded.length > 1 ? 1 : null, oldest([...this.latest.values()]));
  }

  /** Drops the older of an event in `recorded` (by index) and a latest-only one. */
  private dropOlder(index: number | null, latest: WorkbenchEvent | undefined): void {
    if (latest && (index === null || latest.seq < this.recorded[index]!.seq)) this.latest.delete(latest.type);
    else if (index !== null) this.recorded.splice(index, 1);
  }
}

function oldest(events: WorkbenchEvent[]): WorkbenchEvent | undefined {
  return events.sort(bySeq)[0];
}

function bySeq(a: WorkbenchEvent, b: WorkbenchEvent): number {
  return a.seq - b.seq;
}

/** The event with the strings of its tool arguments shortened; the live event is left whole. */
function shortened(event: WorkbenchEvent): WorkbenchEvent {
  switch (event.type) {
    case 'tool-started':
    case 'approval-requested':
      return { ...event, args: shortenStrings(event.args) };
    case 'approval-resolved':
      return event.args ? { ...event, args: shortenStrings(event.args) } : event;
    default:
      return event;
  }
}
