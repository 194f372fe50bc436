import type { ChangeTotals, ConversationSummary, HostInfo, McpServerStatus, Message, Phase, PublicSettings, RpiState, RunSummary, RunUsage, Snapshot, UsageTotal } from '../../../engine/contract/index.js';
import { replayRun, streamedSummary, waitingElsewhere } from './replayRun.js';
import type { RunView } from './runView.js';

export interface OpenFolder {
  path: string;
  name: string;
  fileCount: number;
}

/** Everything the UI shows; derived only from snapshots, events and request results. */
export interface WorkbenchState {
  connection: 'connecting' | 'ready' | 'lost';
  host: HostInfo | null;
  settings: PublicSettings | null;
  folder: OpenFolder | null;
  /** The conversation shown; null when the folder has none yet. */
  conversationId: string | null;
  /** The folder's conversations, most recent first, kept live by `conversation-*` events. */
  conversations: ConversationSummary[];
  /** The conversation whose run is active (maybe not the one shown), or null. */
  runningConversationId: string | null;
  /**
   * The run of another conversation than the one shown, while it is going: what it waits for (approvals,
   * questions, the plan review) is shown wherever the user is. Null when no other conversation's run is.
   */
  otherRun: RunView | null;
  messages: Message[];
  rpi: RpiState;
  running: boolean;
  phase: Phase | null;
  /** Summary text streamed so far in the current run. */
  streamingSummary: string;
  /** The live view of the active or most recent run; null before any run and after an undo or discard. */
  run: RunView | null;
  /** The last request was not answered and no run is active: it can be resumed or discarded. */
  resumable: boolean;
  /** Seq of the last event applied; a gap means events were missed and a resync is due. */
  lastSeq: number;
  needsResync: boolean;
  warnings: string[];
  /** The last failed request, shown to the user until dismissed. */
  error: string | null;
  /** When the error is a start refused because another conversation's run is going: that conversation, offered as a switch. */
  errorRunningIn: string | null;
  /** Each request's changed files and lines, as last counted; null when they cannot be counted (no checkpoint). */
  changeTotals: Record<string, ChangeTotals | null>;
  /** What each request's run kept (research, the plan's outcome), by message id, as the last snapshot said; requests whose run kept nothing are absent. */
  runs: Record<string, RunSummary>;
  /** What each request's model calls used in all, by message id; live for the running request (`run-usage`). */
  requestUsage: Record<string, UsageTotal>;
  /** The current run's usage per step (rpi/'s, for the request it answers); null when it has none. */
  runUsage: RunUsage | null;
  /** The latest status of each MCP server, by name, as `mcp-status` events tell it (Settings merges it with the list it loads). */
  mcpStatus: Record<string, McpServerStatus>;
}

export const emptyRpi: RpiState = { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false };

/** What a snapshot replaces, as it is with no folder open. */
const noFolder = {
  folder: null,
  conversationId: null,
  conversations: [],
  runningConversationId: null,
  otherRun: null,
  messages: [],
  rpi: emptyRpi,
  running: false,
  phase: null,
  streamingSummary: '',
  run: null,
  resumable: false,
  lastSeq: 0,
  needsResync: false,
  changeTotals: {},
  runs: {},
  requestUsage: {},
  runUsage: null,
} satisfies Partial<WorkbenchState>;

export const initialState: WorkbenchState = {
  connection: 'connecting',
  host: null,
  settings: null,
  ...noFolder,
  warnings: [],
  error: null,
  errorRunningIn: null,
  mcpStatus: {},
};

/**
 * Replaces everything a snapshot knows about; connection, host, settings and errors are kept. The run
 * view is rebuilt by replaying the snapshot's run events.
 */
export function applySnapshot(state: WorkbenchState, snapshot: Snapshot | null): WorkbenchState {
  if (snapshot === null) return { ...state, ...noFolder };
  const run = replayRun(snapshot);
  return {
    ...state,
    folder: { path: snapshot.folder, name: snapshot.name, fileCount: snapshot.fileCount },
    conversationId: snapshot.conversationId ?? null,
    conversations: snapshot.conversations ?? [],
    runningConversationId: snapshot.runningConversationId ?? (snapshot.running ? (snapshot.conversationId ?? null) : null),
    otherRun: waitingElsewhere(snapshot),
    messages: snapshot.conversation,
    rpi: snapshot.rpi,
    running: snapshot.running,
    phase: snapshot.running ? (run?.phase ?? null) : null,
    streamingSummary: snapshot.running ? streamedSummary(snapshot.runEvents ?? []) : '',
    run,
    resumable: snapshot.resumable ?? false,
    lastSeq: snapshot.lastSeq,
    needsResync: false,
    warnings: snapshot.warnings,
    changeTotals: keptTotals(state.changeTotals, snapshot),
    runs: snapshot.runs ?? {},
    requestUsage: snapshot.usage?.requests ?? {},
    runUsage: snapshot.usage?.current ?? null,
    mcpStatus: Object.fromEntries((snapshot.mcp ?? []).map((status) => [status.name, status])),
  };
}

/** Counts of the requests still in the conversation of the same folder; another folder's are dropped. */
function keptTotals(totals: WorkbenchState['changeTotals'], snapshot: Snapshot): WorkbenchState['changeTotals'] {
  const ids = new Set(snapshot.conversation.map((message) => message.id));
  return Object.fromEntries(Object.entries(totals).filter(([messageId]) => ids.has(messageId)));
}
