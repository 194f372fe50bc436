import type { ParsedPayload, Snapshot, WorkbenchChannel, WorkbenchResults } from '../contract/index.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import type { PlanGate } from '../approvals/planGate.js';
import type { QuestionBroker } from '../approvals/questionBroker.js';
import type { ChangesService } from '../changes/changesService.js';
import type { PathSearch } from '../context/pathSearch.js';
import { readPlan, readResearch } from '../rpi/rpiState.js';
import type { ConversationStore } from '../store/conversation.js';
import { readRunFile } from './runHistory.js';
import type { RunGate } from './runGate.js';

/** One handler per request about the open folder, over the validated (or, in process, typed) payload. */
export type WorkbenchHandlers = {
  [C in WorkbenchChannel]: (payload: ParsedPayload<C>) => Promise<WorkbenchResults[C]>;
};

/** The services of one open folder that its requests are answered with. */
export interface WorkbenchServices {
  stateDir: string;
  runs: RunGate;
  changes: ChangesService;
  broker: ApprovalBroker;
  planGate: PlanGate;
  questions: QuestionBroker;
  paths: PathSearch;
  conversation: ConversationStore;
  /** The open folder's check command, kept in the user's config. */
  folderCheck: { get(): Promise<string | null>; set(command: string | null): Promise<void> };
  snapshot: () => Promise<Snapshot>;
}

/** Every request about the open folder, answered once, here; hosts and in-process callers reach it through Workbench.request. */
export function workbenchHandlers({ stateDir, runs, changes, broker, planGate, questions, paths, conversation, folderCheck, snapshot }: WorkbenchServices): WorkbenchHandlers {
  return {
    'workbench:snapshot': snapshot,
    'session:send': ({ prompt, context }) => runs.send(prompt, context ? { context } : {}),
    'session:cancel': async () => ({ cancelled: await runs.cancel() }),
    'session:resume': () => runs.resume(),
    'session:retry-failed': () => runs.retryFailed(),
    'session:approve': async ({ requestId, ...answer }) => ({ decision: await broker.answer(requestId, answer) }),
    'session:answer-question': async ({ requestId, answer }) => ({ outcome: questions.answer(requestId, answer) }),
    'session:undo': async ({ messageId }) => ({ restoredFiles: await runs.undo(messageId) }),
    'session:regenerate': ({ messageId }) => runs.regenerate(messageId),
    'session:undo-preview': ({ messageId }) => runs.previewUndo(messageId),
    'session:review-plan': async (decision) => {
      planGate.answer(decision);
      return { decision: decision.decision };
    },
    'session:discard': async () => ({ discarded: await runs.discard() }),
    'session:approval-preview': ({ requestId, args }) => changes.previewApproval(requestId, args),
    'changes:list': ({ messageId, range }) => changes.list(messageId, range),
    'changes:diffs': ({ messageId, ...options }) => changes.diffs(messageId, options),
    'changes:file': ({ messageId, path, range }) => changes.fileDiff(messageId, path, range),
    'changes:revert': ({ messageId, paths: files }) => runs.whileIdle(() => changes.revert(messageId, files)),
    'changes:undo-revert': ({ revertId, paths: files }) => runs.whileIdle(() => changes.undoRevert(revertId, files)),
    'rpi:read': async ({ file }) => ({ text: await (file === 'research' ? readResearch(stateDir) : readPlan(stateDir)) }),
    'context:paths': ({ query }) => paths.search(query),
    'session:run-file': ({ messageId, file }) => readRunFile(stateDir, conversation, messageId, file),
    'folder:check': async () => ({ command: await folderCheck.get() }),
    'folder:set-check': async ({ command }) => {
      await folderCheck.set(command);
      return { command: await folderCheck.get() };
    },
  };
}
