import { z } from 'zod';
import type { RequestChannel } from './channels.js';
import type { RequestResults } from './requestResults.js';
import { undoChoicesSchema } from './undo.js';
import { mcpServerInputSchema, mcpServerNameSchema } from './mcp.js';
import { questionLimits } from './questionLimits.js';
import { approvalSettingsSchema, contextItemsSchema, phaseSchema, promptCachingSchema, rpiFileSchema, toolModeSchema } from './model.js';
import { checkCommandSchema, contextWindowTokens, dollarsPerMillion, httpUrl, nonEmpty, phaseModelsPatchSchema } from './settingsFields.js';

export { checkCommandSchema, maxCheckCommandChars, phaseModelPatchSchema, type PhaseModelPatch } from './settingsFields.js';
export type { RequestResults, StartedRun, WorkbenchResults } from './requestResults.js';

const empty = z.strictObject({});

/** The conversation a request is about; the most recent when absent. Looked up among the folder's, never used as a path. */
const inConversation = { conversationId: nonEmpty('must be the id of a conversation').max(200, { error: 'must be the id of a conversation' }).optional() };
const conversationOnly = z.strictObject(inConversation);
const namedConversation = nonEmpty('must be the id of a conversation').max(200, { error: 'must be the id of a conversation' });

const changeRangeSchema = z.enum(['request', 'since'], { error: 'must be "request" or "since"' });
const filePaths = z.array(nonEmpty('must be a file path'), { error: 'must be a list of file paths' }).min(1, { error: 'must name at least one file' });

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

export type RequestPayload<C extends RequestChannel> = z.input<(typeof requestSchemas)[C]>;
export type ParsedPayload<C extends RequestChannel> = z.output<(typeof requestSchemas)[C]>;

/** The user's answer at the plan review gate: approve, approve an edited plan, or reject. */
export type PlanDecision = ParsedPayload<'session:review-plan'>;

/** Errors are values at the boundary: a host never throws across it. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export type Response<C extends RequestChannel> = Result<RequestResults[C]>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });
