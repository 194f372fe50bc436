import path from 'node:path';
import type { ApprovalPreview, ChangeList, ChangeRange, FileDiff, PathMatches, RevertResult, RpiFile, RunFileAnswer, Snapshot, WorkbenchEvent } from '../contract/index.js';
import { ChangesService } from '../changes/changesService.js';
import { followLiveChanges, type LiveChanges } from '../changes/liveChanges.js';
import { readPlan, readResearch, readRpiState } from '../rpi/rpiState.js';
import { ConversationStore, unansweredRequest } from '../store/conversation.js';
import { openToolLog } from '../store/toolLog.js';
import { UnreachableSubtrees } from '../workspace/unreachable.js';
import { countFiles } from '../workspace/walkFiles.js';
import { Workspace } from '../workspace/workspace.js';
import { EventBus } from './eventBus.js';
import { checkFolder } from './folderCheck.js';
import { acquireFolderLock, type FolderLock } from './folderLock.js';
import { endOrphanedCommands } from '../process/orphanedCommands.js';
import { PendingWrites } from '../workspace/pendingWrites.js';
import { ApprovalBroker, type ApprovalAnswer } from '../approvals/approvalBroker.js';
import { PlanGate, type PlanDecision } from '../approvals/planGate.js';
import { CheckpointStore, type RestoreChange } from '../checkpoints/checkpointStore.js';
import { memoryAllowList, RunController, type RunOptions, type SendOptions, type StartedRun } from './runController.js';
import { PathSearch } from '../context/pathSearch.js';
import { RunEventLog } from './runEventLog.js';
import { startMcpHub } from '../mcp/startMcpHub.js';
import type { WorkbenchMcp } from '../mcp/workbenchMcp.js';
import { openStateFolder } from './stateFolder.js';
import { readRunFile, runSummaries } from './runHistory.js';

export { stateDirName } from './stateFolder.js';

/** The engine facade: everything the desktop app, the CLI and the browser host do goes through it. */
export interface Workbench {
  /** The real absolute path of the opened folder. */
  readonly folder: string;
  /** The user's MCP servers while this folder is open; null when the host runs none. */
  readonly mcp: WorkbenchMcp | null;
  /**
   * Appends the message to the conversation, clears the previous run's research and plan, and starts a
   * run. Refused (RunRefusedError) while a run is active or when no model is configured.
   */
  send(prompt: string, options?: SendOptions): Promise<StartedRun>;
  /** Continues the run that stopped (cancel, crash, failure) at its first pending step. */
  resume(): Promise<StartedRun>;
  /** Sets the latest request's failed steps back to pending, each with its earlier failure reason, and resumes. */
  retryFailed(): Promise<StartedRun>;
  /** Stops the active run promptly, leaving it resumable; resolves when it has stopped. */
  cancel(): Promise<boolean>;
  /** Answers an approval request once; throws (the request stays open) for an invalid edit, throws when already answered. */
  approve(requestId: string, answer: ApprovalAnswer): Promise<'approved' | 'edited' | 'denied' | 'expired'>;
  /** Answers the plan review gate: approve, approve an edited plan (at least one item), or reject. */
  reviewPlan(decision: PlanDecision): void;
  /** Restores the folder to before the message, cuts the conversation there, clears rpi/; returns the paths restored. */
  undo(messageId: string): Promise<string[]>;
  /** What undo(messageId) would restore. */
  previewUndo(messageId: string): Promise<RestoreChange[]>;
  /** undo(messageId), then sends that request again. */
  regenerate(messageId: string): Promise<StartedRun>;
  /**
   * Forgets the request whose run stopped, keeping the files: answers it with where the run stopped
   * (so it is no longer resumable) and clears rpi/. False when there was nothing to discard; refused
   * (RunRefusedError) while a run is active.
   */
  discard(): Promise<boolean>;
  /** The files a request changed ('request'), or that changed since before it ('since', what undo takes back), with line counts. */
  changes(messageId: string, range?: ChangeRange): Promise<ChangeList>;
  /** Diffs of a request's files: those at `paths`, or all; `context` unchanged lines around changes ('auto': every line up to 1 MB). */
  diffs(messageId: string, options?: { range?: ChangeRange; paths?: readonly string[]; context?: number | 'auto' }): Promise<FileDiff[]>;
  /** One file's diff in a request's changes (every line for files up to 1 MB). */
  fileDiff(messageId: string, path: string, range?: ChangeRange): Promise<FileDiff>;
  /** Puts files back as they were before the request, after a checkpoint; refused (RunRefusedError) during a run. */
  revertFiles(messageId: string, paths: readonly string[]): Promise<RevertResult>;
  /** Takes a revert back; refused during a run. */
  undoRevert(revertId: string, paths: readonly string[]): Promise<RevertResult>;
  /** What an approval waiting for an answer would change, with its own or edited arguments. */
  previewApproval(requestId: string, args?: Record<string, unknown>): Promise<ApprovalPreview>;
  /** The text of the current run's research.md or plan.md, or null when the run has not written it. */
  readRpiFile(file: RpiFile): Promise<string | null>;
  /** The folder's files and folders matching what was typed after `@` (fuzzy, best first, at most 50), for attaching. */
  searchPaths(query: string): Promise<PathMatches>;
  /**
   * A request's research.md or plan.md: the current run's, or as runs/ kept it for an earlier request;
   * a reason instead when there is none. Refused (RunRefusedError) for an id that is not a request here.
   */
  readRunFile(messageId: string, file: RpiFile): Promise<RunFileAnswer>;
  snapshot(): Promise<Snapshot>;
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * Opens a project folder: checks it, creates `.workbench/` (git-ignored from inside), and takes the
 * folder's lock. Throws a FolderError or FolderLockedError whose message can be shown as is.
 */
export async function openWorkbench(folder: string, options: RunOptions = {}): Promise<Workbench> {
  const root = await checkFolder(folder);
  const state = await openStateFolder(root);
  const stateDir = state.dir;
  const lock = await acquireFolderLock(root, stateDir).catch(async (error: unknown) => {
    await state.close();
    throw error;
  });
  // Commands a crashed engine left running on this folder are ended before anything else happens here.
  const notices = await orphanNotices(lock.crashed, root);
  const bus = new EventBus();
  const runEvents = new RunEventLog();
  bus.subscribe((event) => runEvents.record(event));
  // A torn line cut off before an append is news for whoever watches: a warning event (the CLI prints it on stderr).
  const reportCut = (message: string) => void bus.emit({ type: 'warning', runId: null, message });
  const conversation = new ConversationStore(stateDir, reportCut);
  // What the folder's walks cannot reach (a path past the system's limit) is skipped, and said once.
  const unreachable = new UnreachableSubtrees((message) => void bus.emit({ type: 'warning', runId: null, message }));
  const allowedCommands = options.allowedCommands ?? memoryAllowList();
  const broker = new ApprovalBroker({ emit: (event) => void bus.emit(event), rememberCommand: (command) => allowedCommands.add(root, command) });
  const planGate = new PlanGate((event) => void bus.emit(event));
  let runs: RunController;
  let mcp: ReturnType<typeof startMcpHub> = null;
  let changes: ChangesService;
  let liveChanges: LiveChanges | null = null;
  try {
    const pending = new PendingWrites(stateDir);
    const [toolLog, workspace, checkpoints] = await Promise.all([
      openToolLog(stateDir, reportCut),
      Workspace.at(root, { unreachable }),
      CheckpointStore.open(root, stateDir, { pending, unreachable }),
    ]);
    // Before anything is written: temp files a crashed write or restore left among the user's files go.
    const swept = await pending.sweep(workspace);
    if (swept.length > 0) notices.push(sweptNotice(swept));
    workspace.keepJournal(pending);
    const settleChanges = () => liveChanges?.settled() ?? Promise.resolve();
    mcp = startMcpHub({ folder: root, options, emit: (event) => void bus.emit(event) });
    runs = new RunController({ stateDir, workspace, bus, conversation, toolLog, checkpoints, broker, planGate, allowedCommands, runEvents, settleChanges, mcp, options });
    changes = new ChangesService({ workspace, checkpoints, conversation, broker, journal: pending, emit: (event) => void bus.emit(event) });
  } catch (error) {
    await mcp?.close();
    await lock.release();
    await state.close();
    throw error;
  }
  let closed = false;
  liveChanges = followLiveChanges({ subscribe: (listener) => bus.subscribe(listener), announce: async (messageId, runId) => (closed ? undefined : changes.announce(messageId, runId)) });

  const paths = new PathSearch({ root, onUnreachable: unreachable.report });

  const assertOpen = () => {
    if (closed) throw new Error(`The workbench for ${root} is closed.`);
  };

  return {
    folder: root,
    mcp,
    send(prompt, sendOptions) {
      assertOpen();
      return runs.send(prompt, sendOptions);
    },
    resume() {
      assertOpen();
      return runs.resume();
    },
    retryFailed() {
      assertOpen();
      return runs.retryFailed();
    },
    cancel: () => runs.cancel(),
    approve: (requestId, answer) => broker.answer(requestId, answer),
    reviewPlan: (decision) => planGate.answer(decision),
    undo(messageId) {
      assertOpen();
      return runs.undo(messageId);
    },
    previewUndo: (messageId) => runs.previewUndo(messageId),
    regenerate(messageId) {
      assertOpen();
      return runs.regenerate(messageId);
    },
    discard() {
      assertOpen();
      return runs.discard();
    },
    changes(messageId, range) {
      assertOpen();
      return changes.list(messageId, range);
    },
    diffs(messageId, diffOptions = {}) {
      assertOpen();
      return changes.diffs(messageId, diffOptions);
    },
    fileDiff(messageId, filePath, range) {
      assertOpen();
      return changes.fileDiff(messageId, filePath, range);
    },
    revertFiles(messageId, paths) {
      assertOpen();
      return runs.whileIdle(() => changes.revert(messageId, paths));
    },
    undoRevert(revertId, paths) {
      assertOpen();
      return runs.whileIdle(() => changes.undoRevert(revertId, paths));
    },
    previewApproval(requestId, args) {
      assertOpen();
      return changes.previewApproval(requestId, args);
    },
    readRpiFile(file) {
      assertOpen();
      return file === 'research' ? readResearch(stateDir) : readPlan(stateDir);
    },
    searchPaths(query) {
      assertOpen();
      return paths.search(query);
    },
    readRunFile(messageId, file) {
      assertOpen();
      return readRunFile(stateDir, conversation, messageId, file);
    },
    async snapshot() {
      assertOpen();
      // Taken together, before any await: the replayed events end exactly at lastSeq.
      const lastSeq = bus.lastSeq;
      const running = runs.running;
      const recorded = runEvents.events();
      const mcpStatuses = mcp?.statuses();
      // A subtree the count cannot reach is listed in the warnings below, not also announced as an event.
      const [history, rpi, fileCount] = await Promise.all([conversation.load(), readRpiState(stateDir), countFiles(root, { onUnreachable: unreachable.remember })]);
      const kept = await runSummaries(stateDir, history.messages);
      return {
        folder: root,
        name: path.basename(root),
        fileCount,
        conversation: history.messages,
        rpi,
        running,
        lastSeq,
        warnings: [...notices, ...history.warnings, ...kept.warnings, ...unreachable.warnings()],
        pendingApprovals: broker.pending(),
        planReview: planGate.pending(),
        runEvents: recorded,
        resumable: !running && unansweredRequest(history.messages) !== null,
        runs: kept.runs,
        ...(mcpStatuses ? { mcp: mcpStatuses } : {}),
      };
    },
    subscribe(listener) {
      assertOpen();
      return bus.subscribe(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      await runs.cancel();
      await mcp?.close();
      bus.clear();
      await lock.release();
      await state.close();
    },
  };
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
