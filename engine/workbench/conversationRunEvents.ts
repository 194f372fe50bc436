import type { WorkbenchEvent } from '../contract/index.js';
import { RunEventLog } from './runEventLog.js';

/** Conversations whose latest run is kept to be replayed; the one whose run started longest ago goes first. */
const maxConversations = 16;

/**
 * The latest run of each conversation, as a RunEventLog each, so switching to a conversation shows its
 * own last run rather than another's or none. Only runs seen since the folder was opened: the events
 * live in memory. A run's events are told apart by its run id, which its run-started ties to a conversation.
 */
export class ConversationRunEvents {
  private readonly logs = new Map<string, { runId: string; log: RunEventLog }>();

  constructor(private readonly limit?: number) {}

  /** Takes every event the bus emits. */
  record(event: WorkbenchEvent): void {
    if (event.type === 'conversation-deleted') {
      this.logs.delete(event.deletedId);
      return;
    }
    if (event.runId === null) return;
    if (event.type === 'run-started') {
      const conversationId = event.conversationId ?? '';
      this.logs.delete(conversationId); // re-inserted last: the most recently started
      if (this.logs.size >= maxConversations) this.logs.delete(this.logs.keys().next().value!);
      const log = new RunEventLog(this.limit);
      log.record(event);
      this.logs.set(conversationId, { runId: event.runId, log });
      return;
    }
    for (const kept of this.logs.values()) {
      if (kept.runId === event.runId) return kept.log.record(event);
    }
  }

  /** The recorded events of the conversation's latest run, oldest first; none when it has had no run here. */
  events(conversationId: string | null): WorkbenchEvent[] {
    return conversationId === null ? [] : (this.logs.get(conversationId)?.log.events() ?? []);
  }

  /** Forgets the conversation's run: after an undo, a regenerate or a discard there is no run to show. */
  clear(conversationId: string): void {
    this.logs.delete(conversationId);
  }
}
