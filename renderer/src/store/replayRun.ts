import type { Snapshot, WorkbenchEvent } from '../../../engine/contract/index.js';
import { reduceRun, withPendingRequests } from './reduceRun.js';
import type { RunView } from './runView.js';

/**
 * The run view a snapshot rebuilds: its recorded run events replayed through the live reducer (no seq
 * checks), then the approvals, questions and plan review it says are waiting.
 */
export function replayRun(snapshot: Snapshot): RunView | null {
  const replayed = (snapshot.runEvents ?? []).reduce<RunView | null>((run, event) => reduceRun(run, event), null);
  return withPendingRequests(replayed, { approvals: snapshot.pendingApprovals, questions: snapshot.pendingQuestions, planReview: snapshot.planReview });
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
