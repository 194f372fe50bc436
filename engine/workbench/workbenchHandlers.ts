import type { ParsedPayload, Snapshot, WorkbenchChannel, WorkbenchResults } from '../contract/index.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import type { PlanGate } from '../approvals/planGate.js';
import type { QuestionBroker } from '../approvals/questionBroker.js';
import type { ChangesService } from '../changes/changesService.js';
import type { PathSearch } from '../context/pathSearch.js';
import type { Conversations, ConversationScope } from '../conversations/conversations.js';
import { readPlan, readResearch } from '../rpi/rpiState.js';
import type { ConversationDesk } from './conversationDesk.js';
import { readRunFile } from './runHistory.js';
import type { RunGate } from './runGate.js';

/** One handler per request about the open folder, over the validated (or, in process, typed) payload. */
export type WorkbenchHandlers = {
  [C in WorkbenchChannel]: (payload: ParsedPayload<C>) => Promise<WorkbenchResults[C]>;
};

/** The services of one open folder that its requests are answered with. */
export interface WorkbenchServices {
  runs: RunGate;
  changes: ChangesService;
  broker: ApprovalBroker;
  planGate: PlanGate;
  questions: QuestionBroker;
  paths: PathSearch;
  conversations: Conversations;
  desk: ConversationDesk;
  /** The open folder's check command, kept in the user's config. */
  folderCheck: { get(): Promise<string | null>; set(command: string | null): Promise<void> };
  snapshot: (scope: ConversationScope | null) => Promise<Snapshot>;
}

/** Every request about the open folder, answered once, here; hosts and in-process callers reach it through Workbench.request. */
export function workbenchHandlers({ runs, changes, broker, planGate, questions, paths, conversations, desk, folderCheck, snapshot }: WorkbenchServices): WorkbenchHandlers {
  // Reading names a conversation (or the most recent) and changes nothing; a change moves the old layout first.
  const reading = (conversationId?: string) => conversations.find(conversationId);
  const writing = (conversationId?: string) => conversations.forWriting(conversationId);
  const rpiText = async (conversationId: string | undefined, read: (dir: string) => Promise<string | null>) => {
    const scope = await reading(conversationId);
    return { text: scope ? await read(scope.dir) : null };
  };
  return {
    'workbench:snapshot': async ({ conversationId }) => snapshot(await reading(conversationId)),
    'session:send': async ({ prompt, context, conversationId }) => runs.send(await writing(conversationId), prompt, context ? { context } : {}),
    'session:cancel': async () => ({ cancelled: await runs.cancel() }),
    'session:resume': async ({ conversationId }) => runs.resume(await writing(conversationId)),
    'session:retry-failed': async ({ conversationId }) => runs.retryFailed(await writing(conversationId)),
    'session:approve': async ({ requestId, ...answer }) => ({ decision: await broker.answer(requestId, answer) }),
    'session:answer-question': async ({ requestId, answer }) => ({ outcome: questions.answer(requestId, answer) }),
    'session:undo': async ({ messageId, conversationId, choices }) => runs.undo(await writing(conversationId), messageId, choices),
    'session:regenerate': async ({ messageId, conversationId, choices }) => runs.regenerate(await writing(conversationId), messageId, choices),
    'session:undo-preview': async ({ messageId, conversationId }) => runs.previewUndo(await desk.existing(conversationId), messageId),
    'session:review-plan': async (decision) => {
      planGate.answer(decision);
      return { decision: decision.decision };
    },
    'session:discard': async ({ conversationId }) => ({ discarded: await runs.discard(await writing(conversationId)) }),
    'session:approval-preview': ({ requestId, args }) => changes.previewApproval(requestId, args),
    'changes:list': ({ messageId, range }) => changes.list(messageId, range),
    'changes:diffs': ({ messageId, ...options }) => changes.diffs(messageId, options),
    'changes:file': ({ messageId, path, range }) => changes.fileDiff(messageId, path, range),
    'changes:revert': ({ messageId, paths: files }) => runs.whileIdle(() => changes.revert(messageId, files)),
    'changes:undo-revert': ({ revertId, paths: files }) => runs.whileIdle(() => changes.undoRevert(revertId, files)),
    'rpi:read': ({ file, conversationId }) => rpiText(conversationId, file === 'research' ? readResearch : readPlan),
    'context:paths': ({ query }) => paths.search(query),
    'session:run-file': async ({ messageId, file, conversationId }) => {
      const scope = await desk.existing(conversationId);
      return readRunFile(scope.dir, scope.store, messageId, file);
    },
    'folder:check': async () => ({ command: await folderCheck.get() }),
    'folder:set-check': async ({ command }) => {
      await folderCheck.set(command);
      return { command: await folderCheck.get() };
    },
    'conversations:list': async () => ({ conversations: await desk.list() }),
    'conversations:new': () => desk.create(),
    'conversations:rename': ({ conversationId, title }) => desk.rename(conversationId, title),
    'conversations:delete': ({ conversationId }) => desk.remove(conversationId),
  };
}
