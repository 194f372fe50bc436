import type { RpiState } from '../contract/index.js';
import { clearRpiState, readRpiState } from '../rpi/rpiState.js';
import { unansweredRequest } from '../store/conversation.js';
import { newMessage } from './newMessage.js';
import type { RewindDeps } from './rewind.js';
import { keepCurrentRun } from './runHistory.js';

export type DiscardDeps = Pick<RewindDeps, 'stateDir' | 'conversation' | 'emit' | 'forgetRun'>;

/**
 * Forgets the request whose run stopped (cancel, crash, failure): answers it with a note saying where
 * the run stopped, so it is no longer resumable, then keeps its research and plan in runs/ and clears
 * rpi/ as a new request would. The folder is left as it is, and so is the request's checkpoint, so undo
 * can still restore it.
 * False, changing nothing, when the last request was already answered.
 */
export async function discardStoppedRun(deps: DiscardDeps): Promise<boolean> {
  const { messages } = await deps.conversation.load();
  if (!unansweredRequest(messages)) return false;
  const message = newMessage('assistant', discardNotice(await readRpiState(deps.stateDir)));
  // The answer first: should the engine die before rpi/ is cleared, the next request clears it anyway.
  await deps.conversation.append(message);
  deps.forgetRun();
  deps.emit({ type: 'message-added', runId: null, message });
  // The stopped run's research and plan stay viewable from its request, as an earlier request's would.
  await keepCurrentRun(deps.stateDir);
  await clearRpiState(deps.stateDir);
  return true;
}

/** Where the run stopped, judged from rpi/ as the orchestrator would, and what became of the files. */
function discardNotice(state: RpiState): string {
  const kept = 'files changed so far were kept; undo the request to restore them.';
  if (!state.hasResearch) return 'Run discarded during research, before any file was changed.';
  if (!state.hasPlan) return 'Run discarded during planning, before any file was changed.';
  const step = state.items.find((item) => item.status === 'pending');
  if (step) return `Run discarded at step ${step.index + 1} of ${state.items.length} (${step.label}) — ${kept}`;
  return `Run discarded before its summary — ${kept}`;
}
