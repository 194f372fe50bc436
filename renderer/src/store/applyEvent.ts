import type { EventOf, WorkbenchEvent } from '../../../engine/contract/index.js';
import { usageTotalOf } from '../../../engine/contract/runUsage.js';
import { rpiWithCheck } from './checkResults.js';
import { reduceRun } from './reduceRun.js';
import { conversationOf, elsewhere, sortedByActivity, touched } from './otherConversation.js';
import { emptyRpi, type WorkbenchState } from './state.js';

/**
 * The pure reducer behind the store: the next state after one engine event. Events
 * arrive in seq order; a repeat is ignored and a gap marks the state for a resync from a fresh snapshot.
 */
export function applyEvent(state: WorkbenchState, event: WorkbenchEvent): WorkbenchState {
  if (event.seq <= state.lastSeq) return state;
  if (event.seq !== state.lastSeq + 1) return { ...state, needsResync: true };
  // A page with no conversation yet takes the first one something happens in (its own first request).
  const shown = state.conversationId ?? (event.type === 'message-added' ? (event.conversationId ?? null) : null);
  const about = conversationOf(state, event);
  const listed = event.type === 'message-added' ? { conversations: touched(state.conversations, about, event.message) } : {};
  if (about !== undefined && about !== shown) return elsewhere({ ...state, ...listed, lastSeq: event.seq }, event, about);
  const next = { ...state, ...listed, conversationId: shown, lastSeq: event.seq, run: reduceRun(state.run, event) };
  switch (event.type) {
    case 'conversation-updated':
      return { ...next, conversations: sortedByActivity([...next.conversations.filter((known) => known.id !== event.conversation.id), event.conversation]) };
    case 'conversation-deleted':
      return {
        ...next,
        conversations: next.conversations.filter((conversation) => conversation.id !== event.deletedId),
        // The conversation shown is gone: the next snapshot shows the most recent one left.
        ...(event.deletedId === next.conversationId ? { conversationId: null, needsResync: true } : {}),
      };
    case 'run-started':
      // A new request's run starts from an empty rpi/; a resumed one goes on from its own figures.
      return { ...next, running: true, runningConversationId: event.conversationId ?? shown, otherRun: null, resumable: false, phase: null, streamingSummary: '', runUsage: next.runUsage?.messageId === event.messageId ? next.runUsage : null };
    case 'phase-started':
      return { ...next, phase: event.phase };
    case 'plan-updated':
    case 'plan-ready':
      return { ...next, rpi: { ...next.rpi, hasPlan: true, items: event.items, allDone: event.items.every((item) => item.status !== 'pending') } };
    case 'check-finished':
      return { ...next, rpi: rpiWithCheck(next.rpi, event) };
    case 'summary-delta':
      return { ...next, streamingSummary: next.streamingSummary + event.text };
    case 'message-added':
      if (next.messages.some((message) => message.id === event.message.id)) return next;
      return {
        ...next,
        // An answer outside any run discarded the stopped run: rpi/ was cleared, its figures kept with the request.
        runUsage: event.runId === null && event.message.role === 'assistant' ? null : next.runUsage,
        messages: [...next.messages, event.message],
        streamingSummary: event.message.role === 'assistant' ? '' : next.streamingSummary,
        resumable: event.message.role === 'assistant' ? false : next.resumable,
      };
    case 'conversation-reset':
      // An undo or regenerate: the engine cleared rpi/ with the conversation, and the folder changed under every count.
      return {
        ...next,
        messages: event.messages,
        rpi: emptyRpi,
        resumable: false,
        changeTotals: {},
        runs: runsOf(next.runs, event.messages),
        requestUsage: runsOf(next.requestUsage, event.messages),
        runUsage: next.runUsage && event.messages.some((message) => message.id === next.runUsage?.messageId) ? next.runUsage : null,
      };
    case 'changes-updated': {
      const known = next.changeTotals[event.messageId];
      if (known && known.files === event.files && known.added === event.added && known.removed === event.removed) return next;
      return { ...next, changeTotals: { ...next.changeTotals, [event.messageId]: { files: event.files, added: event.added, removed: event.removed } } };
    }
    case 'run-usage':
      return withRunUsage(next, event);
    case 'warning':
      return { ...next, warnings: [...next.warnings, event.message] };
    case 'mcp-status':
      return { ...next, mcpStatus: { ...next.mcpStatus, [event.status.name]: event.status } };
    case 'run-finished':
      return {
        ...next,
        running: false,
        runningConversationId: null,
        phase: null,
        resumable: event.status !== 'done' && next.messages.at(-1)?.role === 'user',
        // A run's failure is shown in the chat and the run view, not as a request error.
      };
    case 'phase-completed':
    case 'implement-progress':
    case 'tool-started':
    case 'tool-finished':
    case 'approval-requested':
    case 'approval-resolved':
    case 'question-asked':
    case 'question-answered':
    case 'usage':
    case 'context-trimmed':
    case 'model-status':
    case 'context-window':
    case 'instructions-read':
    case 'context-items-read':
      return next; // only the run view shows these
  }
}

/** The kept figures of the requests still in the conversation: undo and regenerate removed the others' with them. */
function runsOf<T>(runs: Record<string, T>, messages: readonly { id: string }[]): Record<string, T> {
  const kept = new Set(messages.map((message) => message.id));
  return Object.fromEntries(Object.entries(runs).filter(([messageId]) => kept.has(messageId)));
}

/** The request's usage per step as the engine counts it, and its total for the chat. */
function withRunUsage(state: WorkbenchState, { messageId, steps }: EventOf<'run-usage'>): WorkbenchState {
  return { ...state, runUsage: { messageId, steps }, requestUsage: { ...state.requestUsage, [messageId]: usageTotalOf(steps) } };
}
