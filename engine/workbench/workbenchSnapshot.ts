import path from 'node:path';
import type { RpiState, RunUsage, Snapshot } from '../contract/index.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import type { PlanGate } from '../approvals/planGate.js';
import type { QuestionBroker } from '../approvals/questionBroker.js';
import type { WorkbenchMcp } from '../mcp/workbenchMcp.js';
import { readRpiState } from '../rpi/rpiState.js';
import { readCurrentUsage } from '../rpi/runUsage.js';
import { conversationSummaries } from '../conversations/conversationActivity.js';
import type { Conversations, ConversationScope } from '../conversations/conversations.js';
import { unansweredRequest } from '../store/conversation.js';
import type { UnreachableSubtrees } from '../workspace/unreachable.js';
import { countFiles } from '../workspace/walkFiles.js';
import type { EventBus } from './eventBus.js';
import type { ConversationRunEvents } from './conversationRunEvents.js';
import { runSummaries } from './runHistory.js';

export interface SnapshotSources {
  root: string;
  bus: EventBus;
  runs: { readonly runningConversation: string | null; liveUsage(): RunUsage | null };
  runEvents: ConversationRunEvents;
  conversations: Pick<Conversations, 'list'>;
  broker: ApprovalBroker;
  planGate: PlanGate;
  questions: QuestionBroker;
  mcp: WorkbenchMcp | null;
  /** What opening the folder did that the user should hear of (ended orphaned commands, swept temp files). */
  notices: readonly string[];
  /** The subtrees the folder's walks could not reach, listed among the warnings. */
  unreachable: UnreachableSubtrees;
}

/**
 * Everything a page needs to draw the folder and one of its conversations (`scope`; null when the folder
 * has none yet) after a (re)load; the events after `lastSeq` follow it. The run shown, its usage and its
 * rpi/ are the conversation's own: another conversation's run is only named (runningConversationId), while
 * its pending approvals and questions are shown wherever the user is.
 */
export async function takeSnapshot(sources: SnapshotSources, scope: ConversationScope | null): Promise<Snapshot> {
  const { root, bus, runs, runEvents, conversations, broker, planGate, questions, mcp, notices, unreachable } = sources;
  // Taken together, before any await: the replayed events end exactly at lastSeq.
  const lastSeq = bus.lastSeq;
  const runningConversationId = runs.runningConversation;
  const shown = scope?.id ?? null;
  const running = runningConversationId !== null && runningConversationId === shown;
  // The active run's figures as it counts them: its file may be mid-append.
  const live = running ? runs.liveUsage() : null;
  const recorded = runEvents.events(shown);
  const mcpStatuses = mcp?.statuses();
  const stateDir = scope?.dir ?? null;
  const [history, rpi, fileCount, listed] = await Promise.all([
    scope ? scope.store.load() : { messages: [], warnings: [] },
    stateDir ? readRpiState(stateDir) : emptyRpi,
    // A subtree the count cannot reach is listed in the warnings below, not also announced as an event.
    countFiles(root, { onUnreachable: unreachable.remember }),
    conversationSummaries(conversations, runningConversationId),
  ]);
  const current = live ? { usage: live, warnings: [] } : stateDir ? await readCurrentUsage(stateDir) : { usage: null, warnings: [] };
  const kept = stateDir ? await runSummaries(stateDir, history.messages, current.usage) : { runs: {}, usage: {}, warnings: [] };
  return {
    folder: root,
    name: path.basename(root),
    conversationId: shown,
    conversations: listed,
    runningConversationId,
    fileCount,
    conversation: history.messages,
    rpi,
    running,
    lastSeq,
    warnings: [...notices, ...history.warnings, ...kept.warnings, ...current.warnings, ...unreachable.warnings()],
    pendingApprovals: broker.pending(),
    pendingQuestions: questions.pending(),
    planReview: planGate.pending(),
    runEvents: recorded,
    resumable: !running && unansweredRequest(history.messages) !== null,
    runs: kept.runs,
    usage: { requests: kept.usage, current: current.usage && Object.hasOwn(kept.usage, current.usage.messageId) ? current.usage : null },
    ...(mcpStatuses ? { mcp: mcpStatuses } : {}),
  };
}

const emptyRpi: RpiState = { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false };
