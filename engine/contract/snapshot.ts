import { z } from 'zod';
import { workbenchEventSchema } from './events.js';
import { mcpServerStatusSchema } from './mcp.js';
import { runUsageSchema, usageTotalSchema } from './runUsageSchema.js';
import { questionRequestSchema } from './question.js';
import { approvalRequestSchema, messageSchema, planReviewSchema, rpiStateSchema } from './model.js';

const planTallySchema = z.object({ done: z.number().int().nonnegative(), failed: z.number().int().nonnegative(), total: z.number().int().nonnegative() });
const count = z.number().int().nonnegative();
const checksTallySchema = z.object({ passed: count, failed: count, denied: count, none: count });
const runSummarySchema = z.object({ research: z.boolean(), plan: planTallySchema.nullable(), checks: checksTallySchema.optional() });

/** Everything a page needs to draw a folder from scratch: after opening it, and to resync after missed events. */
export const snapshotSchema = z.object({
  folder: z.string(),
  name: z.string(),
  fileCount: z.number().int().nonnegative(),
  conversation: z.array(messageSchema),
  rpi: rpiStateSchema,
  running: z.boolean(),
  /** The seq of the last event emitted before this snapshot was taken. */
  lastSeq: z.number().int().nonnegative(),
  warnings: z.array(z.string()),
  /** Approvals waiting for an answer, so a reloaded page can show them. */
  pendingApprovals: z.array(approvalRequestSchema).optional(),
  /** Questions of the model waiting for the user's answer, so a reloaded page can show them. */
  pendingQuestions: z.array(questionRequestSchema).optional(),
  /** The plan waiting at the review gate, or null. */
  planReview: planReviewSchema.nullable().optional(),
  /**
   * The events of the active or most recent run since its run-started (tool arguments shortened), so a
   * reloaded page rebuilds its live run view by replaying them; empty after an undo.
   */
  runEvents: z.array(workbenchEventSchema).optional(),
  /** True when the last request was not answered and no run is active: resume or discard it. */
  resumable: z.boolean().optional(),
  /**
   * What each request's run kept (research written, the plan's done/failed/total), by message id: the
   * current run's from rpi/, earlier ones' from runs/. A request whose run kept nothing is absent.
   */
  runs: z.record(z.string(), runSummarySchema).optional(),
  /**
   * What the requests' model calls used: each request's total by message id (the current run's from rpi/,
   * earlier ones' from runs/; a request with no recorded call is absent), and the current run's per step.
   */
  usage: z.object({ requests: z.record(z.string(), usageTotalSchema), current: runUsageSchema.nullable() }).optional(),
  /** The folder's MCP servers as they are now (later changes come as `mcp-status`). */
  mcp: z.array(mcpServerStatusSchema).optional(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;
