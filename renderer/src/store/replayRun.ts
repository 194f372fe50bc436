import type { Snapshot, WorkbenchEvent } from '../../../engine/contract/index.js';
import { reduceRun, withPendingRequests } from './reduceRun.js';
import type { RunView } from './runView.js';

/**
 * The run view a snapshot rebuilds: its recorded run events replayed through the live reducer (no seq
 * checks), then the approvals, questions and plan review it says are waiting, unless they wait in
 * another conversation's run (see waitingElsewhere).
 */
export function replayRun(snapshot: Snapshot): RunView | null {
  const replayed = (snapshot.runEvents ?? []).reduce<RunView | null>((run, event) => reduceRun(run, event), null);
  return waitsElsewhere(snapshot) ? replayed : withPendingRequests(replayed, pendingOf(snapshot));
}

/** What waits for the user in another conversation's run than the one shown, as a view of that run; null when that is not the case. */
export function waitingElsewhere(snapshot: Snapshot): RunView | null {
  return waitsElsewhere(snapshot) ? withPendingRequests(null, pendingOf(snapshot)) : null;
}

/** A folder runs one request at a time: what waits belongs to the conversation whose run is going. */
function waitsElsewhere({ runningConversationId, conversationId }: Snapshot): boolean {
  return runningConversationId !== undefined && runningConversationId !== null && runningConversationId !== conversationId;
}

function pendingOf(snapshot: Snapshot) {
  return { approvals: snapshot.pendingApprovals, questions: snapshot.pendingQuestions, planReview: snapshot.planReview };
}

/** The summary text streamed so far, when the recorded run is in its summary and no answer has arrived. */
export function streamedSummary(events: readonly WorkbenchEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.type === 'summary-delta') text += event.text;
    else if (event.type === 'run-started' || (event.type === 'message-added' && event.message.role === 'assistant')) text = '';
  }
  return text;
}
