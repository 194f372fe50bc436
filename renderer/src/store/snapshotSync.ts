import type { Snapshot, WorkbenchEvent } from '../../../engine/contract/index.js';
import { applyEvent } from './applyEvent.js';
import { applySnapshot, type WorkbenchState } from './state.js';

/** A snapshot request's answer: the snapshot (null: no folder open), or the error in a person's words. */
export type SnapshotAnswer = { ok: true; value: Snapshot | null } | { ok: false; error: string };

export interface SnapshotSyncDeps {
  /** Asks the engine for a snapshot of the conversation (null: the engine picks one). */
  ask(conversationId: string | null): Promise<SnapshotAnswer>;
  getState(): WorkbenchState;
  setState(update: (state: WorkbenchState) => WorkbenchState): void;
  /** Shows a request's error (the banner). */
  showError(error: string): void;
}

/**
 * How snapshots reach the page's state. The engine takes a snapshot when the request reaches it, so by the
 * time it is drawn the page may already have applied events after its `lastSeq`: drawn alone it would take
 * the page back, and with no later event to show the gap (a run waiting on the model or an approval) the
 * page would stay behind. So:
 * - each snapshot is drawn with the events heard while it was on its way applied over it (`applyEvent`
 *   skips those it already holds);
 * - one resync is on its way at a time; one asked for meanwhile runs once more after it;
 * - a snapshot of another folder or conversation than the page now shows, or is switching to, is not drawn.
 */
export class SnapshotSync {
  /** How many snapshots are on their way, and the events heard meanwhile. */
  private asking = 0;
  private heardEvents: WorkbenchEvent[] = [];
  /** Counts the folders opened: a snapshot asked for before one was is of the folder left. */
  private folderOpens = 0;
  /** The conversation a switch is taking the page to, while its snapshot is on its way. */
  private switchingTo: string | null = null;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;

  constructor(private readonly deps: SnapshotSyncDeps) {}

  /** Every event the page receives, as it arrives (before it is applied). */
  heard(event: WorkbenchEvent): void {
    if (this.asking > 0) this.heardEvents.push(event);
  }

  /** Draws the shown conversation's snapshot anew; while one is on its way, asks once more after it. */
  resync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = this.syncUntilCurrent().finally(() => (this.syncing = null));
    return this.syncing;
  }

  /** Shows another conversation of the folder; a later switch asked for meanwhile wins. */
  async switchTo(conversationId: string): Promise<void> {
    this.switchingTo = conversationId;
    const opens = this.folderOpens;
    const { answer, heard } = await this.during(() => this.deps.ask(conversationId));
    if (this.switchingTo !== conversationId) return;
    this.switchingTo = null;
    if (!answer.ok) return this.deps.showError(answer.error);
    if (opens === this.folderOpens) this.deps.setState((state) => ({ ...drawn(state, answer.value, heard), error: null, errorRunningIn: null }));
  }

  /**
   * Shows the folder a request opened (`open` answers its snapshot; undefined when it failed, null when it
   * opened none). Events heard meanwhile may be the old folder's or the new one's (each folder numbers its
   * own), so they are not applied; when there were any, a second snapshot of the new folder covers them.
   */
  async opened(open: () => Promise<Snapshot | null | undefined>): Promise<void> {
    const { answer, heard } = await this.during(async (): Promise<SnapshotAnswer> => ({ ok: true, value: (await open()) ?? null }));
    if (!answer.ok || answer.value === null) return;
    const snapshot = answer.value;
    this.folderOpens += 1;
    this.deps.setState((state) => applySnapshot(state, snapshot));
    if (heard.length > 0) await this.resync();
  }

  private async syncUntilCurrent(): Promise<void> {
    let outcome: SyncOutcome;
    do {
      this.syncAgain = false;
      outcome = await this.syncOnce();
    } while (this.syncAgain || outcome.kind === 'stale' || (outcome.kind === 'drawn' && this.deps.getState().needsResync));
    if (outcome.kind === 'failed') this.deps.showError(outcome.error);
  }

  private async syncOnce(): Promise<SyncOutcome> {
    const opens = this.folderOpens;
    const { answer, heard } = await this.during(() => this.deps.ask(this.target()));
    if (!answer.ok) return { kind: 'failed', error: answer.error };
    const target = this.target();
    const elsewhere = answer.value !== null && target !== null && answer.value.conversationId !== target;
    if (opens !== this.folderOpens || elsewhere) return { kind: 'stale' };
    this.deps.setState((state) => drawn(state, answer.value, heard));
    return { kind: 'drawn' };
  }

  /** The conversation the page shows, or is switching to (null: none yet, the engine picks). */
  private target(): string | null {
    return this.switchingTo ?? this.deps.getState().conversationId;
  }

  /** Runs a snapshot request; returns its answer with the events heard while it was on its way. */
  private async during(ask: () => Promise<SnapshotAnswer>): Promise<{ answer: SnapshotAnswer; heard: WorkbenchEvent[] }> {
    this.asking += 1;
    const from = this.heardEvents.length;
    try {
      const answer = await ask();
      return { answer, heard: this.heardEvents.slice(from) };
    } finally {
      this.asking -= 1;
      if (this.asking === 0) this.heardEvents = [];
    }
  }
}

type SyncOutcome = { kind: 'drawn' } | { kind: 'stale' } | { kind: 'failed'; error: string };

/** The state a snapshot draws, brought up to date with the events heard while it was on its way (none without a folder). */
function drawn(state: WorkbenchState, snapshot: Snapshot | null, heard: readonly WorkbenchEvent[]): WorkbenchState {
  const fresh = applySnapshot(state, snapshot);
  return snapshot === null ? fresh : heard.reduce(applyEvent, fresh);
}
