import { z } from 'zod';
import { tablePreviewSchema } from './tablePreview.js';
import { approvalRequestSchema, checkResultSchema, learnedContextWindowSchema, messageSchema, phaseSchema, planItemSchema, planReviewSchema } from './model.js';
import { mcpServerStatusSchema } from './mcp.js';
import { stepUsageSchema } from './runUsageSchema.js';
import { conversationSummarySchema } from './conversations.js';
import { questionOutcomeSchema, questionRequestSchema } from './question.js';

/**
 * Every event carries its workbench-wide sequence number and the run it belongs to (null outside a run);
 * one of a conversation (its run's, its history's) also names that conversation, so a page showing
 * another one leaves it out. Approvals and plan reviews name none: they are shown wherever the user is.
 */
const base = { seq: z.number().int().positive(), runId: z.string().nullable(), conversationId: z.string().optional() };

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...base, ...shape });

export const runStatusSchema = z.enum(['done', 'failed', 'cancelled']);
export type RunStatus = z.infer<typeof runStatusSchema>;
export const approvalDecisionSchema = z.enum(['approved', 'denied', 'edited', 'expired']);

export const workbenchEventSchema = z.discriminatedUnion('type', [
  event('run-started', {
    messageId: z.string(),
    /** The engine's clock (ms since the epoch), so a page that loads mid-run can time it. */
    startedAt: z.number(),
  }),
  event('phase-started', {
    phase: phaseSchema,
    /** The model the phase runs on (Settings may give each phase its own). */
    model: z.string().optional(),
  }),
  event('phase-completed', { phase: phaseSchema, ok: z.boolean(), error: z.string().optional() }),
  event('implement-progress', { current: z.number().int(), total: z.number().int(), label: z.string() }),
  event('plan-updated', { items: z.array(planItemSchema) }),
  event('plan-ready', planReviewSchema.shape),
  event('tool-started', {
    callId: z.string(),
    tool: z.string(),
    args: z.record(z.string(), z.unknown()),
    /** The plan item (index) the call works on: Implement's calls and an item's check; absent for the rest, the whole change's check included. */
    item: z.number().int().nonnegative().optional(),
  }),
  event('tool-finished', {
    callId: z.string(),
    ok: z.boolean(),
    summary: z.string(),
    durationMs: z.number().nonnegative(),
    /** The result of a table tool as a small table, for the activity feed. */
    table: tablePreviewSchema.optional(),
  }),
  /**
   * A check ran (or was denied) after an item said it was done: the item's index (null for the folder's check
   * over the whole change after the last item), and the fix round it followed (0: the item's own attempt).
   */
  event('check-finished', {
    index: z.number().int().nonnegative().nullable(),
    label: z.string(),
    round: z.number().int().nonnegative(),
    ...checkResultSchema.shape,
  }),
  event('approval-requested', approvalRequestSchema.shape),
  event('approval-resolved', {
    requestId: z.string(),
    decision: approvalDecisionSchema,
    /** The arguments the action ran with, when the user edited them. */
    args: z.record(z.string(), z.unknown()).optional(),
  }),
  /** The model asks the user a question (ask_user, Research and Plan only); the phase waits for the answer. */
  event('question-asked', questionRequestSchema.shape),
  event('question-answered', {
    requestId: z.string(),
    outcome: questionOutcomeSchema,
    /** The user's answer, when they gave one. */
    answer: z.string().optional(),
  }),
  event('summary-delta', { text: z.string() }),
  event('message-added', { message: messageSchema }),
  event('conversation-reset', { messages: z.array(messageSchema) }),
  /**
   * One model request's tokens, in one meaning whatever the server's field names: promptTokens is every
   * input token (cachedTokens and cacheWriteTokens are parts of it), completionTokens every output token
   * (reasoningTokens a part of it). The engine always sends the cache, reasoning and cost fields.
   */
  event('usage', {
    phase: phaseSchema,
    promptTokens: z.number().int().nonnegative(),
    /** Of the prompt, read from the server's prompt cache. */
    cachedTokens: z.number().int().nonnegative().optional(),
    /** Of the prompt, written to the cache (billed apart by Anthropic-style caches). */
    cacheWriteTokens: z.number().int().nonnegative().optional(),
    completionTokens: z.number().int().nonnegative(),
    /** Of the output, the model's reasoning. */
    reasoningTokens: z.number().int().nonnegative().optional(),
    /** What the request cost in US dollars (the user's price, else the server's figure, else the price catalog's); null when no price is known. */
    costUsd: z.number().nonnegative().nullable().optional(),
    contextWindow: z.number().int().positive(),
    /** True when the server sent no usage and the counts were estimated with a tokenizer. */
    estimated: z.boolean().optional(),
    /** The model that answered. */
    model: z.string().optional(),
  }),
  /**
   * The request's usage so far, per step, as kept on disk with its run: after each model call (a resumed
   * run's earlier calls included), and when a resumed run starts. Each states the whole; the latest counts.
   */
  event('run-usage', { messageId: z.string(), steps: z.array(stepUsageSchema) }),
  event('warning', { message: z.string() }),
  /** The project's instruction files (AGENTS.md, nested ones for an item's files) a phase was given, when they change. */
  event('instructions-read', { phase: phaseSchema, files: z.array(z.string()) }),
  /** The items the user attached to the request (labelled as contextItemLabel does: a path, a folder with "/", a note's first words), when a run first gives them to a phase. */
  event('context-items-read', { phase: phaseSchema, items: z.array(z.string()) }),
  /** The context window the run fits its requests to, and where it was learned, once the run knows it. */
  event('context-window', {
    ...learnedContextWindowSchema.pick({ tokens: true, source: true, detail: true }).shape,
    /** The model the window is of, when the run's phases use more than one. */
    model: z.string().optional(),
  }),
  /**
   * What a model call is doing while nothing else shows it: sent and waiting, queued by the server
   * (keep-alives only), the model thinking (reasoning streamed apart from the answer), answering, or
   * waiting to try again after a failure (the attempt coming, of how many, after how long, and why).
   */
  event('model-status', {
    phase: phaseSchema,
    state: z.enum(['waiting', 'queued', 'thinking', 'answering', 'retrying']),
    attempt: z.number().int().positive().optional(),
    attempts: z.number().int().positive().optional(),
    delayMs: z.number().nonnegative().optional(),
    reason: z.string().optional(),
  }),
  /** A request was fitted to the context budget (DESIGN §4 "Context budget"): what changed, and the budget now. */
  event('context-trimmed', {
    phase: phaseSchema,
    /** The plan item (index) whose request it was, in Implement. */
    item: z.number().int().nonnegative().optional(),
    /** Older tool results replaced by a one-line stub naming recall_tool_result and their tool-log id. */
    setAside: z.number().int().nonnegative(),
    /** Older turns condensed to their first line, or into one note. */
    condensed: z.number().int().nonnegative(),
    /** Results of the latest turn cut to what fits, with a note on how to read on. */
    cut: z.number().int().nonnegative(),
    /** The request's size after fitting, by the engine's estimate. */
    promptTokens: z.number().int().nonnegative(),
    budget: z.number().int().positive(),
    contextWindow: z.number().int().positive(),
    /** True when the server had refused the request as too long, so the budget shrank and the turn is asked again. */
    afterRefusal: z.boolean().optional(),
  }),
  /** A request's changed files were counted again (during its run, as files change; after a revert): its totals now. */
  event('changes-updated', {
    messageId: z.string(),
    files: z.number().int().nonnegative(),
    added: z.number().int().nonnegative(),
    removed: z.number().int().nonnegative(),
  }),
  /** One of the user's MCP servers changed: starting, ready with its tools, failed (with its stderr), stopped. */
  event('mcp-status', { status: mcpServerStatusSchema }),
  /** A conversation was started, renamed, or changed (a message, a run starting or ending): its line in the list now. */
  event('conversation-updated', { conversation: conversationSummarySchema }),
  event('conversation-deleted', { deletedId: z.string() }),
  event('run-finished', {
    status: runStatusSchema,
    error: z.string().optional(),
    /** The phase a failed or cancelled run stopped in; its error is that phase's. */
    phase: phaseSchema.optional(),
    finishedAt: z.number(),
  }),
]);

export type WorkbenchEvent = z.infer<typeof workbenchEventSchema>;
export type WorkbenchEventType = WorkbenchEvent['type'];
export type EventOf<T extends WorkbenchEventType> = Extract<WorkbenchEvent, { type: T }>;

/** An event as an emitter hands it over, before the workbench stamps its sequence number. */
export type UnsequencedEvent = WorkbenchEvent extends infer E
  ? E extends WorkbenchEvent
    ? Omit<E, 'seq'>
    : never
  : never;
