import path from 'node:path';
import type { RunUsage, Snapshot } from '../contract/index.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import type { PlanGate } from '../approvals/planGate.js';
import type { QuestionBroker } from '../approvals/questionBroker.js';
import type { WorkbenchMcp } from '../mcp/workbenchMcp.js';
import { readRpiState } from '../rpi/rpiState.js';
import { readCurrentUsage } from '../rpi/runUsage.js';
import { unansweredRequest, type ConversationStore } from '../store/conversation.js';
import type { UnreachableSubtrees } from '../workspace/unreachable.js';
import { countFiles } from '../workspace/walkFiles.js';
import type { EventBus } from './eventBus.js';
import type { RunEventLog } from './runEventLog.js';
import { runSummaries } from './runHistory.js';

export interface SnapshotSources {
  root: string;
  stateDir: string;
  bus: EventBus;
  runs: { readonly running: boolean; liveUsage(): RunUsage | null };
  runEvents: RunEventLog;
  conversation: ConversationStore;
  broker: ApprovalBroker;
  planGate: PlanGate;
  questions: QuestionBroker;
  mcp: WorkbenchMcp | null;
  /** What opening the folder did that the user should hear of (ended orphaned commands, swept temp files). */
  notices: readonly string[];
  /** The subtrees the folder's walks could not reach, listed among the warnings. */
  unreachable: UnreachableSubtrees;
}

/** Everything a page needs to draw the folder after a (re)load; the events after `lastSeq` follow it. */
export async function takeSnapshot(sources: SnapshotSources): Promise<Snapshot> {
  const { root, stateDir, bus, runs, runEvents, conversation, broker, planGate, questions, mcp, notices, unreachable } = sources;
  // Taken together, before any await: the replayed events end exactly at lastSeq.
  const lastSeq = bus.lastSeq;
  const running = runs.running;
  // The active run's figures as it counts them: its file may be mid-append.
  const live = runs.liveUsage();
  const recorded = runEvents.events();
  const mcpStatuses = mcp?.statuses();
  const [history, rpi, fileCount] = await Promise.all([
    conversation.load(),
    readRpiState(stateDir),
    // A subtree the count cannot reach is listed in the warnings below, not also announced as an event.
    countFiles(root, { onUnreachable: unreachable.remember }),
  ]);
  const current = live ? { usage: live, warnings: [] } : await readCurrentUsage(stateDir);
  const kept = await runSummaries(stateDir, history.messages, current.usage);
  return {
    folder: root,
    name: path.basename(root),
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
