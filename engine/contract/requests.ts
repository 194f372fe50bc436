import { z } from 'zod';
import type { RequestChannel, WorkbenchChannel } from './channels.js';
import type { HostInfo, LearnedContextWindow, PathMatches, PublicSettings, RecentFolder } from './model.js';
import type { Snapshot } from './snapshot.js';
import type { ApprovalPreview, ChangeList, FileDiff, RevertResult } from './changes.js';
import type { RunFileAnswer } from './runHistory.js';
import type { ConversationSummary } from './conversations.js';
import { undoChoicesSchema, type UndoFile, type UndoResult } from './undo.js';
import { mcpServerInputSchema, mcpServerNameSchema, type McpOverview } from './mcp.js';
import { questionLimits } from './questionLimits.js';
import { approvalSettingsSchema, contextItemsSchema, contextWindowRange, phaseSchema, promptCachingSchema, rpiFileSchema, toolModeSchema } from './model.js';

const nonEmpty = (what = 'must be a non-empty string') =>
  z.string({ error: what }).trim().min(1, { error: what });

const empty = z.strictObject({});

/** The conversation a request is about; the most recent when absent. Looked up among the folder's, never used as a path. */
const inConversation = { conversationId: nonEmpty('must be the id of a conversation').max(200, { error: 'must be the id of a conversation' }).optional() };
const conversationOnly = z.strictObject(inConversation);
const namedConversation = nonEmpty('must be the id of a conversation').max(200, { error: 'must be the id of a conversation' });

const changeRangeSchema = z.enum(['request', 'since'], { error: 'must be "request" or "since"' });
const filePaths = z.array(nonEmpty('must be a file path'), { error: 'must be a list of file paths' }).min(1, { error: 'must name at least one file' });

/** A price in US dollars per million tokens, as typed in Settings. */
const dollarsPerMillion = z
  .number({ error: 'must be a price in dollars per million tokens' })
  .nonnegative({ error: 'must be 0 or more' })
  .max(100_000, { error: 'must be at most 100,000 dollars per million tokens' });

const httpUrl = z
  .string({ error: 'must be a URL string' })
  .trim()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'must be an http:// or https:// URL' },
  );

/** The longest check command a folder may set: a command line, not a script. */
export const maxCheckCommandChars = 2000;

/** A folder's check command: one command line, run as is in the folder after every plan item without a check of its own. */
export const checkCommandSchema = z
  .string({ error: 'must be a command line' })
  .trim()
  .min(1, { error: 'must be a command line, not empty (clear it to set none)' })
  .max(maxCheckCommandChars, { error: `must be at most ${maxCheckCommandChars.toLocaleString('en-US')} characters` })
  .refine((value) => !/[\r\n\0]/.test(value), { error: 'must be one line: a single command, e.g. npm test' });
/** A context window typed in Settings; null beside it means automatic, learned from the server. */
const contextWindowTokens = z
  .number({ error: 'must be a number of tokens' })
  .int({ error: 'must be a whole number of tokens' })
  .min(contextWindowRange.min, { error: 'must be at least 1024 tokens' })
  .max(contextWindowRange.max, { error: 'must be at most 10,000,000 tokens' });

/**
 * One phase's model as the Settings form saves it: the default, another model on the same server, or
 * another connection whose key (a new one, null to forget it, absent to keep it) is stored like the main one.
 */
export const phaseModelPatchSchema = z.discriminatedUnion(
  'use',
  [
    z.strictObject({ use: z.literal('default') }),
    z.strictObject({ use: z.literal('model'), model: nonEmpty('must name a model'), contextWindow: contextWindowTokens.nullable().optional() }),
    z.strictObject({
      use: z.literal('connection'),
      baseUrl: httpUrl,
      model: nonEmpty('must name a model'),
      contextWindow: contextWindowTokens.nullable().optional(),
      apiKey: nonEmpty().nullable().optional(),
    }),
  ],
  { error: 'must be "default", "model" or "connection"' },
);
export type PhaseModelPatch = z.output<typeof phaseModelPatchSchema>;

const phaseModelsPatchSchema = z.strictObject({
  research: phaseModelPatchSchema.optional(),
  plan: phaseModelPatchSchema.optional(),
  implement: phaseModelPatchSchema.optional(),
  summary: phaseModelPatchSchema.optional(),
});

/** Payload schema of every request, keyed by channel. Hosts validate with these before acting. */
export const requestSchemas = {
  'workbench:snapshot': conversationOnly,
  'session:send': z.strictObject({
    ...inConversation,
    prompt: nonEmpty(),
    /** Files, folders and notes attached to the request; stored with the message. */
    context: contextItemsSchema.optional(),
  }),
  'session:cancel': empty,
  'session:resume': conversationOnly,
  'session:retry-failed': conversationOnly,
  'session:approve': z.strictObject({
    requestId: nonEmpty(),
    decision: z.enum(['approve', 'deny'], { error: 'must be "approve" or "deny"' }),
    /** Edited arguments; validated again against the tool's own schema by the engine. */
    args: z.record(z.string(), z.unknown(), { error: 'must be an object of tool arguments' }).optional(),
    alwaysAllow: z.boolean({ error: 'must be true or false' }).optional(),
    /** Allow such actions without asking for the rest of this request (when the request offers it). */
    allowForRequest: z.boolean({ error: 'must be true or false' }).optional(),
  }),
  'session:answer-question': z.strictObject({
    requestId: nonEmpty(),
    /** The user's answer; absent: no answer, the model goes on with its best assumption. */
    answer: z
      .string({ error: 'must be the answer text' })
      .trim()
      .min(1, { error: 'must not be empty: send no answer to let the model go on with its best assumption' })
      .max(questionLimits.answer, { error: `must be at most ${questionLimits.answer} characters` })
      .optional(),
  }),
  'session:undo': z.strictObject({ ...inConversation, messageId: nonEmpty(), choices: undoChoicesSchema.optional() }),
  'session:regenerate': z.strictObject({ ...inConversation, messageId: nonEmpty(), choices: undoChoicesSchema.optional() }),
  'session:undo-preview': z.strictObject({ ...inConversation, messageId: nonEmpty() }),
  'session:review-plan': z.discriminatedUnion(
    'decision',
    [
      z.strictObject({ decision: z.literal('approve') }),
      z.strictObject({ decision: z.literal('edit'), plan: nonEmpty('must be the edited plan text') }),
      z.strictObject({ decision: z.literal('reject') }),
    ],
    { error: 'decision must be "approve", "edit" (with the plan) or "reject"' },
  ),
  'session:discard': conversationOnly,
  'session:approval-preview': z.strictObject({
    requestId: nonEmpty(),
    /** Edited arguments to preview instead of the request's own; checked against the tool's schema. */
    args: z.record(z.string(), z.unknown(), { error: 'must be an object of tool arguments' }).optional(),
  }),
  'changes:list': z.strictObject({ messageId: nonEmpty(), range: changeRangeSchema.optional() }),
  'changes:diffs': z.strictObject({
    messageId: nonEmpty(),
    range: changeRangeSchema.optional(),
    /** Only these files of the request's changes; all when absent. */
    paths: filePaths.optional(),
    /** Unchanged lines around each change (3 when absent); 'auto': every line, for files up to 1 MB. */
    context: z
      .union(
        [
          z
            .number()
            .int({ error: 'must be a whole number of lines' })
            .min(0, { error: 'must be 0 or more lines' })
            .max(1_000_000, { error: 'must be at most 1,000,000 lines' }),
          z.literal('auto'),
        ],
        { error: 'must be a whole number of lines or "auto"' },
      )
      .optional(),
  }),
  'changes:file': z.strictObject({ messageId: nonEmpty(), path: nonEmpty('must be a file path'), range: changeRangeSchema.optional() }),
  'changes:revert': z.strictObject({ messageId: nonEmpty(), paths: filePaths }),
  'changes:undo-revert': z.strictObject({ revertId: nonEmpty(), paths: filePaths }),
  'rpi:read': z.strictObject({ ...inConversation, file: rpiFileSchema }),
  /** The `@` completion: the folder's files and folders matching what was typed (an empty query: the shallowest). */
  'context:paths': z.strictObject({ query: z.string({ error: 'must be the text typed after @' }).max(1000, { error: 'must be at most 1,000 characters' }) }),
  /** A request's research.md or plan.md, current or kept in the plan history; the id must be a request of the conversation. */
  'session:run-file': z.strictObject({ ...inConversation, messageId: nonEmpty('must be the id of a request'), file: rpiFileSchema }),
  'folder:check': empty,
  /** Sets the open folder's check command (kept in the user's config, never in the folder); null removes it. */
  'folder:set-check': z.strictObject({ command: checkCommandSchema.nullable() }),
  'conversations:list': empty,
  'conversations:new': empty,
  'conversations:rename': z.strictObject({
    conversationId: namedConversation,
    title: nonEmpty('must not be empty: type a title for the conversation').max(1000, { error: 'must be at most 1,000 characters' }),
  }),
  /** Removes the conversation's history and kept plans, and the checkpoints no other conversation refers to. */
  'conversations:delete': z.strictObject({ conversationId: namedConversation }),
  'settings:get': empty,
  'settings:test-connection': z.strictObject({
    /** Values from the settings form, not yet saved; each falls back to the saved setting. */
    baseUrl: httpUrl.optional(),
    model: nonEmpty().optional(),
    apiKey: nonEmpty().optional(),
    /** Test this phase's own connection: the form's values fall back to the phase's saved ones, its key to its stored key. */
    phase: phaseSchema.optional(),
  }),
  'settings:set': z.strictObject({
    baseUrl: httpUrl.optional(),
    model: nonEmpty().optional(),
    /** A new key to store encrypted, or null to forget the stored one. */
    apiKey: nonEmpty().nullable().optional(),
    contextWindow: contextWindowTokens.nullable().optional(),
    toolMode: toolModeSchema.optional(),
    retries: z
      .number({ error: 'must be a number of retries' })
      .int({ error: 'must be a whole number of retries' })
      .min(0, { error: 'must be 0 or more' })
      .max(10, { error: 'must be at most 10' })
      .optional(),
    promptCaching: promptCachingSchema.optional(),
    /** The phases whose model changes; a phase left out keeps its own. */
    models: phaseModelsPatchSchema.optional(),
    /** The price of the model, per million tokens; null forgets it. */
    price: z
      .strictObject({ input: dollarsPerMillion, cachedInput: dollarsPerMillion.nullable(), output: dollarsPerMillion })
      .nullable()
      .optional(),
    approvals: approvalSettingsSchema
      .extend({
        timeoutSeconds: z
          .number({ error: 'must be a number of seconds' })
          .int({ error: 'must be a whole number of seconds' })
          .min(10, { error: 'must be at least 10 seconds' })
          .max(86_400, { error: 'must be at most 86,400 seconds (a day)' }),
      })
      .partial()
      .strict()
      .optional(),
  }),
  'mcp:list': empty,
  /** Adds a server, or replaces the one named `previousName` (renaming it); secrets left without a value are kept. */
  'mcp:save': z.strictObject({ server: mcpServerInputSchema, previousName: mcpServerNameSchema.optional() }),
  'mcp:remove': z.strictObject({ name: nonEmpty('must be a server name') }),
  'mcp:set-enabled': z.strictObject({ name: nonEmpty('must be a server name'), enabled: z.boolean({ error: 'must be true or false' }) }),
  'mcp:restart': z.strictObject({ name: nonEmpty('must be a server name') }),
  /** Sets or takes back "always allow" for one tool (its name on the server). */
  'mcp:allow-tool': z.strictObject({ server: nonEmpty('must be a server name'), tool: nonEmpty('must be a tool name'), allowed: z.boolean({ error: 'must be true or false' }) }),
  'folders:recent': empty,
  'folders:pick': empty,
  'folders:open': z.strictObject({ folder: nonEmpty('must be a folder path') }),
  'host:info': empty,
} satisfies Record<RequestChannel, z.ZodType>;

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

export type RequestPayload<C extends RequestChannel> = z.input<(typeof requestSchemas)[C]>;
export type ParsedPayload<C extends RequestChannel> = z.output<(typeof requestSchemas)[C]>;

/** The user's answer at the plan review gate: approve, approve an edited plan, or reject. */
export type PlanDecision = ParsedPayload<'session:review-plan'>;

/** Errors are values at the boundary: a host never throws across it. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export type Response<C extends RequestChannel> = Result<RequestResults[C]>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });
