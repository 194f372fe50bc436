import type { ParsedPayload, WorkbenchChannel, WorkbenchEvent, WorkbenchResults } from '../contract/index.js';
import { ChangesService } from '../changes/changesService.js';
import { followLiveChanges, type LiveChanges } from '../changes/liveChanges.js';
import { openToolLog, type ToolLog } from '../store/toolLog.js';
import { UnreachableSubtrees } from '../workspace/unreachable.js';
import { Workspace } from '../workspace/workspace.js';
import { EventBus } from './eventBus.js';
import { checkFolder } from './folderCheck.js';
import { acquireFolderLock, type FolderLock } from './folderLock.js';
import { endOrphanedCommands } from '../process/orphanedCommands.js';
import { PendingWrites } from '../store/pendingWrites.js';
import { ApprovalBroker } from '../approvals/approvalBroker.js';
import { PlanGate } from '../approvals/planGate.js';
import { QuestionBroker } from '../approvals/questionBroker.js';
import { CheckpointStore } from '../checkpoints/checkpointStore.js';
import { PathSearch } from '../context/pathSearch.js';
import { followConversationActivity } from '../conversations/conversationActivity.js';
import { Conversations } from '../conversations/conversations.js';
import { ConversationDesk } from './conversationDesk.js';
import { startMcpHub } from '../mcp/startMcpHub.js';
import type { WorkbenchMcp } from '../mcp/workbenchMcp.js';
import { hostEnvironment } from '../secrets/processCredentials.js';
import type { RunResult } from './runAssembler.js';
import { ConversationRunEvents } from './conversationRunEvents.js';
import { RunGate } from './runGate.js';
import { memoryAllowList, memoryFolderChecks, type RunOptions } from './runOptions.js';
import { hasStateFolder, openStateFolder, stateFolderError } from './stateFolder.js';
import { workbenchHandlers, type WorkbenchHandlers } from './workbenchHandlers.js';
import { takeSnapshot } from './workbenchSnapshot.js';
import { connectionKeys } from '../llm/phaseModel.js';

export { stateDirName } from './stateFolder.js';

/** The payload argument of a request: optional when every field of it is. */
export type PayloadArgument<C extends WorkbenchChannel> = Record<never, never> extends ParsedPayload<C> ? [payload?: ParsedPayload<C>] : [payload: ParsedPayload<C>];

/**
 * The engine facade for one open folder. Every request about it — from a page through a host's dispatch,
 * or in process from the CLI — is answered by its one handler table (workbenchHandlers.ts).
 */
export interface Workbench {
  /** The real absolute path of the opened folder. */
  readonly folder: string;
  /** The user's MCP servers while this folder is open; null when the host runs none. */
  readonly mcp: WorkbenchMcp | null;
  /**
   * Answers one request of the contract's workbench channels. In process the payload is trusted as typed;
   * a page's requests come here validated by the host's dispatch. Refusals reject (RunRefusedError).
   */
  request<C extends WorkbenchChannel>(channel: C, ...payload: PayloadArgument<C>): Promise<WorkbenchResults[C]>;
  /**
   * In process only: settles when the run a request started (its `runId`) has stopped and `run-finished`
   * was emitted, with how it ended; refused for a run this workbench no longer keeps.
   */
  finished(runId: string): Promise<RunResult>;
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * Opens a project folder: checks it, creates `.workbench/` (git-ignored from inside), and takes the
 * folder's lock. Throws a FolderError or FolderLockedError whose message can be shown as is.
 */
export async function openWorkbench(folder: string, options: RunOptions = {}): Promise<Workbench> {
  const root = await checkFolder(folder);
  const state = await openStateFolder(root).catch((error: unknown) => {
    throw stateFolderError(root, error);
  });
  const stateDir = state.dir;
  const lock = await acquireFolderLock(root, stateDir).catch(async (error: unknown) => {
    await state.close();
    throw stateFolderError(root, error);
  });
  // Commands a crashed engine left running on this folder are ended before anything else happens here.
  const notices = await orphanNotices(lock.crashed, root);
  const bus = new EventBus();
  const runEvents = new ConversationRunEvents();
  bus.subscribe((event) => runEvents.record(event));
  // A torn line cut off before an append is news for whoever watches: a warning event (the CLI prints it on stderr).
  const reportCut = (message: string) => void bus.emit({ type: 'warning', runId: null, message });
  // The single-conversation layout is moved by the first change, and said once (a notice on the next snapshots too).
  const conversations = new Conversations({
    stateDir,
    onCut: reportCut,
    onMoved: (message) => {
      notices.push(message);
      void bus.emit({ type: 'warning', runId: null, message });
    },
  });
  // What the folder's walks cannot reach (a path past the system's limit) is skipped, and said once.
  const unreachable = new UnreachableSubtrees((message) => void bus.emit({ type: 'warning', runId: null, message }));
  const allowedCommands = options.allowedCommands ?? memoryAllowList();
  const folderChecks = options.folderChecks ?? memoryFolderChecks();
  const broker = new ApprovalBroker({ emit: (event) => void bus.emit(event), rememberCommand: (command) => allowedCommands.add(root, command) });
  const planGate = new PlanGate((event) => void bus.emit(event));
  const questions = new QuestionBroker((event) => void bus.emit(event));
  let runs: RunGate;
  let mcp: ReturnType<typeof startMcpHub> = null;
  let changes: ChangesService;
  let checkpoints: CheckpointStore;
  let liveChanges: LiveChanges | null = null;
  let toolLog: ToolLog | undefined;
  const pending = new PendingWrites(stateDir);
  try {
    let workspace: Workspace;
    [toolLog, workspace, checkpoints] = await Promise.all([
      openToolLog(stateDir, reportCut),
      Workspace.at(root, { unreachable }),
      CheckpointStore.open(root, stateDir, { pending, unreachable }),
    ]);
    // Before anything is written: temp files a crashed write or restore left among the user's files go,
    // and those of a research.md or plan.md write cut short in `.workbench/` (now that the lock is held).
    const swept = await pending.sweep(workspace);
    await state.sweepUnfinishedWrites();
    if (swept.length > 0) notices.push(sweptNotice(swept));
    workspace.keepJournal(pending);
    const settleChanges = () => liveChanges?.settled() ?? Promise.resolve();
    mcp = startMcpHub({
      folder: root,
      mcp: options.mcp,
      env: options.env ?? hostEnvironment(),
      apiKeys: async () => {
        const settings = await options.llmSettings?.();
        return settings ? connectionKeys(settings) : [];
      },
      emit: (event) => void bus.emit(event),
    });
    // A request's changes end where the folder's next request began, whichever conversation made it.
    const folderHistory = { load: async () => ({ messages: await conversations.allMessages(), warnings: [] }) };
    changes = new ChangesService({ workspace, checkpoints, conversation: folderHistory, broker, journal: pending, emit: (event) => void bus.emit(event) });
    runs = new RunGate({ stateDir, workspace, bus, conversations, changes, toolLog, checkpoints, broker, planGate, questions, allowedCommands, folderChecks, runEvents, settleChanges, mcp, options });
  } catch (error) {
    await mcp?.close();
    await toolLog?.close();
    await pending.close();
    await lock.release();
    await state.close();
    throw error;
  }
  let closed = false;
  const runGate = runs;
  followConversationActivity({
    conversations,
    running: () => runGate.runningConversation,
    subscribe: (listener) => bus.subscribe(listener),
    emit: (event) => void bus.emit(event),
  });
  liveChanges = followLiveChanges({
    subscribe: (listener) => bus.subscribe(listener),
    announce: async (messageId, runId, changedPaths) => (closed ? undefined : changes.announce(messageId, runId, changedPaths)),
  });

  const handlers: WorkbenchHandlers = workbenchHandlers({
    runs,
    changes,
    broker,
    planGate,
    questions,
    paths: new PathSearch({ root, onUnreachable: unreachable.report }),
    conversations,
    desk: new ConversationDesk({ conversations, runs, checkpoints, emit: (event) => void bus.emit(event) }),
    folderCheck: { get: () => folderChecks.get(root), set: (command) => folderChecks.set(root, command) },
    snapshot: (scope) => takeSnapshot({ root, bus, runs: runGate, runEvents, conversations, broker, planGate, questions, mcp, notices, unreachable }, scope),
  });

  return {
    folder: root,
    mcp,
    async request(channel, ...[payload]) {
      // Cancelling a closed workbench answers that nothing ran (close() cancelled it); every other request is refused.
      if (channel !== 'session:cancel') assertOpen(root, closed);
      const handler = handlers[channel] as (payload: unknown) => Promise<WorkbenchResults[typeof channel]>;
      return handler(payload ?? {});
    },
    finished: (runId) => runs.finished(runId),
    subscribe(listener) {
      assertOpen(root, closed);
      return bus.subscribe(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      await runs.cancel();
      await mcp?.close();
      await toolLog.close();
      await pending.close();
      bus.clear();
      await lock.release();
      await state.close();
    },
  };
}

/**
 * For commands that only read (history, diff): opens the folder as openWorkbench does when the workbench
 * has used it before, and answers null, creating nothing, when it never has. Anything named `.workbench`
 * counts as used, so a planted link or file is refused with the same FolderError as a run.
 */
export async function openUsedWorkbench(folder: string, options: RunOptions = {}): Promise<Workbench | null> {
  const root = await checkFolder(folder);
  return (await hasStateFolder(root)) ? openWorkbench(root, options) : null;
}

function assertOpen(root: string, closed: boolean): void {
  if (closed) throw new Error(`The workbench for ${root} is closed.`);
}

/** Ends what the crashed engine's commands left running in this folder, and says so. */
async function orphanNotices(crashed: FolderLock['crashed'], root: string): Promise<string[]> {
  if (!crashed?.engine) return [];
  const ended = await endOrphanedCommands(crashed.engine, root).catch(() => 0);
  if (ended === 0) return [];
  const count = ended === 1 ? '1 process' : `${ended} processes`;
  return [`Ended ${count} of commands that the engine which stopped on this folder (process ${crashed.pid}) had left running.`];
}

function sweptNotice(swept: readonly string[]): string {
  const count = swept.length === 1 ? '1 temp file' : `${swept.length} temp files`;
  const shown = swept.slice(0, 3).join(', ') + (swept.length > 3 ? ', …' : '');
  return `Removed ${count} that a write cut short by a crash had left in the folder (${shown}).`;
}
