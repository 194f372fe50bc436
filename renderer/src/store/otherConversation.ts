import type { ConversationSummary, Message, WorkbenchEvent } from '../../../engine/contract/index.js';
import { reduceRun } from './reduceRun.js';
import type { RunView } from './runView.js';
import type { WorkbenchState } from './state.js';

/**
 * What waits for the user in a run and is announced without naming a conversation: a folder runs one
 * request at a time, so these belong to the conversation whose run is going.
 */
const waitingTypes: ReadonlySet<WorkbenchEvent['type']> = new Set(['approval-requested', 'approval-resolved', 'question-asked', 'question-answered', 'plan-ready']);

/**
 * The conversation an event is about, when it is about one: the one it names, or, for an approval,
 * question or plan review, the one whose run is going. Undefined for the folder's own events.
 */
export function conversationOf(state: WorkbenchState, event: WorkbenchEvent): string | undefined {
  if (event.conversationId !== undefined) return event.conversationId;
  return waitingTypes.has(event.type) ? (state.runningConversationId ?? undefined) : undefined;
}

/**
 * An event of a conversation not shown. Its messages and history wait for a switch; its run is followed
 * in `otherRun`, so what it waits for (approvals, questions, the plan review) is shown wherever the user is,
 * and the list's mark and last activity stay current.
 */
export function elsewhere(state: WorkbenchState, event: WorkbenchEvent, conversationId: string): WorkbenchState {
  switch (event.type) {
    case 'run-started':
      return { ...state, runningConversationId: conversationId, otherRun: reduceRun(null, event) };
    case 'run-finished':
      return { ...state, runningConversationId: null, otherRun: null };
    case 'message-added':
      return state;
    default:
      if (state.runningConversationId !== conversationId) return state;
      return { ...state, otherRun: reduceRun(adopted(state.otherRun, event.runId), event) };
  }
}

/** A view rebuilt from a snapshot knows no run id: the first event of the run gives it one, so it is followed rather than replaced. */
function adopted(run: RunView | null, runId: string | null): RunView | null {
  return run !== null && run.runId === null ? { ...run, runId } : run;
}

/** The list with the conversation's last activity moved up to a message's time, most recent first. */
export function touched(list: readonly ConversationSummary[], conversationId: string | undefined, message: Message): ConversationSummary[] {
  const listed = list.find((conversation) => conversation.id === conversationId);
  if (!listed || listed.updated >= message.ts) return list as ConversationSummary[];
  return sortedByActivity([...list.filter((conversation) => conversation !== listed), { ...listed, updated: message.ts }]);
}

/** Most recent first, as the engine lists them. */
export function sortedByActivity(list: readonly ConversationSummary[]): ConversationSummary[] {
  return [...list].sort((a, b) => b.updated - a.updated || b.created - a.created);
}
