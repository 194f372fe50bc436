import type { WorkbenchChannel } from './channels.js';
import type { HostInfo, LearnedContextWindow, PathMatches, PublicSettings, RecentFolder } from './model.js';
import type { Snapshot } from './snapshot.js';
import type { ApprovalPreview, ChangeList, FileDiff, RevertResult } from './changes.js';
import type { RunFileAnswer } from './runHistory.js';
import type { ConversationSummary } from './conversations.js';
import type { UndoFile, UndoResult } from './undo.js';
import type { McpOverview } from './mcp.js';

/** A run a request started: the user message it answers, and its id in the events (`run-started` … `run-finished`). */
export interface StartedRun {
  messageId: string;
  runId: string;
  /** The conversation the request is in. */
  conversationId: string;
}

/** What each request answers with when it succeeds. */
export interface RequestResults {
  /** null: no folder is open in this window. */
  'workbench:snapshot': Snapshot | null;
  'session:send': StartedRun;
  'session:cancel': { cancelled: boolean };
  'session:resume': StartedRun;
  'session:retry-failed': StartedRun;
  'session:approve': { decision: 'approved' | 'edited' | 'denied' | 'expired' };
  'session:answer-question': { outcome: 'answered' | 'no-answer' };
  /** What the undo put back and kept; `takeBack` reverts it through `changes:undo-revert`. */
  'session:undo': UndoResult;
  'session:regenerate': StartedRun;
  /** Each path undo would put back; those another conversation changed since name its request (a choice for undo). */
  'session:undo-preview': UndoFile[];
  'session:review-plan': { decision: 'approve' | 'edit' | 'reject' };
  /** Forgets a stopped run (files are kept); false when there was nothing to discard. */
  'session:discard': { discarded: boolean };
  /** What a waiting approval would change, file by file, with its own or the edited arguments. */
  'session:approval-preview': ApprovalPreview;
  /** The files a request changed, or that changed since before it, with line counts. */
  'changes:list': ChangeList;
  /** Diffs of a request's files (those at `paths`, or all), git-style patch material. */
  'changes:diffs': FileDiff[];
  /** One file's diff; every line for files up to 1 MB (wholeFile). */
  'changes:file': FileDiff;
  /** The files put back as they were before the request; `revertId` takes the revert back. */
  'changes:revert': RevertResult;
  'changes:undo-revert': RevertResult;
  /** The file's text, or null when the current run has not written it. */
  'rpi:read': { text: string | null };
  /** At most 50 matches, best first. */
  'context:paths': PathMatches;
  /** The file's text, or why none can be shown (not written yet, or not kept). */
  'session:run-file': RunFileAnswer;
  /** The folder's conversations, most recent first. */
  'conversations:list': { conversations: ConversationSummary[] };
  'conversations:new': ConversationSummary;
  'conversations:rename': ConversationSummary;
  'conversations:delete': { deleted: string; collectedCheckpoints: number };
  /** The open folder's check command; null when it sets none. */
  'folder:check': { command: string | null };
  'folder:set-check': { command: string | null };
  /**
   * The server's model ids, whether the model to test is among them, and its context window as the
   * server, the model catalog or the default gives it (both null when no model was named).
   */
  'settings:test-connection': { models: string[]; modelFound: boolean | null; contextWindow: LearnedContextWindow | null };
  'settings:get': PublicSettings;
  'settings:set': PublicSettings;
  /** Every MCP request answers with every server as stored, with its live status in this window's folder. */
  'mcp:list': McpOverview;
  'mcp:save': McpOverview;
  'mcp:remove': McpOverview;
  'mcp:set-enabled': McpOverview;
  'mcp:restart': McpOverview;
  'mcp:allow-tool': McpOverview;
  'folders:recent': RecentFolder[];
  /** null: nothing changed in this window (the dialog was cancelled, or the folder is open in another window, now focused). */
  'folders:pick': Snapshot | null;
  'folders:open': Snapshot | null;
  'host:info': HostInfo;
}

/** What an open folder's workbench answers: the results above, with its snapshot always there. */
export type WorkbenchResults = { [C in WorkbenchChannel]: C extends 'workbench:snapshot' ? Snapshot : RequestResults[C] };
