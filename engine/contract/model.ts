import { z } from 'zod';
import { contextItemLimits } from './contextItemLimits.js';
import { phaseModelsViewSchema } from './phaseModels.js';

export const phaseSchema = z.enum(['research', 'plan', 'implement', 'summary']);
export type Phase = z.infer<typeof phaseSchema>;

const { maxItems, maxPathChars, maxNoteChars } = contextItemLimits;
const count = (value: number) => value.toLocaleString('en-US');

/** A path inside the opened folder as the user attached it: relative, '/' separators, never leaving the folder. */
const itemPathSchema = z
  .string({ error: 'must be a path in the folder' })
  .min(1, { error: 'must be a path in the folder, not empty' })
  .max(maxPathChars, { error: `must be a path of at most ${count(maxPathChars)} characters` })
  .refine((value) => !value.startsWith('/') && !/^[A-Za-z]:/.test(value), { error: 'must be relative to the folder, not absolute' })
  .refine((value) => !value.includes('\\') && !value.includes('\0'), { error: 'must use "/" between folders and hold no NUL character' })
  .refine((value) => !value.split('/').includes('..'), { error: 'must stay inside the folder (no "..")' });

/**
 * Something the user attached to a request: a file (given whole up to a budget), a folder (given as a
 * map) or a pasted note (given verbatim). Stored with the message, so regenerate sends the same items.
 */
export const contextItemSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('file'), path: itemPathSchema }),
    z.strictObject({ kind: z.literal('folder'), path: itemPathSchema }),
    z.strictObject({
      kind: z.literal('note'),
      text: z
        .string({ error: 'must be the note’s text' })
        .refine((value) => value.trim() !== '', { error: 'must not be empty' })
        .refine((value) => value.length <= maxNoteChars, { error: `must be at most ${count(maxNoteChars)} characters` }),
    }),
  ],
  { error: 'must be "file", "folder" or "note"' },
);
export type ContextItem = z.infer<typeof contextItemSchema>;

export const contextItemsSchema = z
  .array(contextItemSchema, { error: 'must be a list of context items' })
  .max(maxItems, { error: `must be at most ${maxItems} items` });

/** Files and folders of the opened folder matching what was typed after `@`, best first. */
export interface PathMatches {
  matches: { path: string; kind: 'file' | 'folder' }[];
  /** True when the folder has more files than are searched (the first 100,000 in name order are). */
  truncated: boolean;
}

export const messageSchema = z.object({
  id: z.string().min(1),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  ts: z.number(),
  /** What the user attached to this request; absent when nothing was. */
  context: contextItemsSchema.optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const planItemStatusSchema = z.enum(['pending', 'done', 'failed']);
export type PlanItemStatus = z.infer<typeof planItemStatusSchema>;

/** How a check ended: its command exited 0, exited otherwise (or was stopped), or was denied (or expired) at its approval. */
export const checkOutcomeSchema = z.enum(['passed', 'failed', 'denied']);
export type CheckOutcome = z.infer<typeof checkOutcomeSchema>;

/** The latest run of a check: the item's own (`plan`, from its `Check:`) or the folder's check command (`folder`). */
export const checkResultSchema = z.object({
  command: z.string(),
  source: z.enum(['plan', 'folder']),
  outcome: checkOutcomeSchema,
  /** The command's exit code; null when it was denied, or a signal or the time limit ended it. */
  exitCode: z.number().int().nullable(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

export const planItemSchema = z.object({
  /** Position in file order (0-based); the number in the file is only a label. */
  index: z.number().int().nonnegative(),
  number: z.number().int().nonnegative(),
  /** The short name before the dash, e.g. "Parse statement". */
  label: z.string(),
  description: z.string(),
  status: planItemStatusSchema,
  failure: z.string().optional(),
  /** The command the item's description ends with (`— Check: \`npm test\``), run when the item says it is done. */
  check: z.string().optional(),
  /** The latest run of the item's check (its own, or the folder's), as kept with the run; absent when none ran. */
  checkResult: checkResultSchema.optional(),
  /** The item's line exactly as in plan.md, without its line ending. */
  rawLine: z.string(),
});
export type PlanItem = z.infer<typeof planItemSchema>;

export const rpiStateSchema = z.object({
  hasResearch: z.boolean(),
  hasPlan: z.boolean(),
  items: z.array(planItemSchema),
  /** From `<!-- original_count: N -->`; null when missing or unreadable, which means "no cap on new items". */
  originalCount: z.number().int().nonnegative().nullable(),
  allDone: z.boolean(),
  /** The folder's check command run once more over the whole change after the last item; absent until it ran. */
  finalCheck: checkResultSchema.optional(),
});
export type RpiState = z.infer<typeof rpiStateSchema>;

/** The files of rpi/ a page can read: research.md and plan.md. */
export const rpiFileSchema = z.enum(['research', 'plan'], { error: 'must be "research" or "plan"' });
export type RpiFile = z.infer<typeof rpiFileSchema>;

/** An action waiting for the user's approval, as `approval-requested` announces it. */
export const approvalRequestSchema = z.object({
  requestId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** The real, resolved path the action touches, when it touches one. */
  path: z.string().optional(),
  /** Why this action needs the user, e.g. "file changes need your approval" or "it may hold secrets". */
  reason: z.string(),
  /** Whether "always allow this exact command in this folder" may be offered. */
  canAlwaysAllow: z.boolean(),
  /** Whether "allow for the rest of this request" may be offered (never for protected paths). */
  canAllowForRequest: z.boolean().optional(),
  expiresAt: z.number(),
});
export type ApprovalRequestView = z.infer<typeof approvalRequestSchema>;

/** A plan waiting at the review gate, as `plan-ready` announces it. */
export const planReviewSchema = z.object({
  items: z.array(planItemSchema),
  /** Items whose text names a risky action, with why. */
  riskyItems: z.array(z.object({ index: z.number().int().nonnegative(), reason: z.string() })),
  /** plan.md as it stands, for the user to edit. */
  planText: z.string(),
});
export type PlanReviewView = z.infer<typeof planReviewSchema>;

export const toolModeSchema = z.enum(['native', 'text', 'auto'], { error: 'must be "native", "text" or "auto"' });
export type ToolMode = z.infer<typeof toolModeSchema>;

/** `auto`: cache hints go to the servers that document them (README, "Prompt caching"); `off`: none at all. */
export const promptCachingSchema = z.enum(['auto', 'off'], { error: 'must be "auto" or "off"' });
export type PromptCaching = z.infer<typeof promptCachingSchema>;

/** The user's price for the model in Settings, in US dollars per million tokens; it overrides any other. */
export const userPriceSchema = z.object({
  input: z.number().nonnegative(),
  /** Input read from the prompt cache; null: billed as input. */
  cachedInput: z.number().nonnegative().nullable(),
  output: z.number().nonnegative(),
});
export type UserPrice = z.infer<typeof userPriceSchema>;

export const fileApprovalSchema = z.enum(['ask', 'auto'], { error: 'must be "ask" or "auto"' });
export const commandApprovalSchema = z.enum(['ask', 'allow-list', 'auto'], { error: 'must be "ask", "allow-list" or "auto"' });

/** How actions that change the folder are approved; protected paths always ask, whatever these say. */
export const approvalSettingsSchema = z.object({
  /** Writes, edits, deletes and moves. */
  files: fileApprovalSchema,
  /** run_command: ask every time, run allow-listed commands without asking, or run all. */
  commands: commandApprovalSchema,
  /** An unanswered request expires (and is denied) after this long. */
  timeoutSeconds: z.number().int().positive(),
  /** Stop after Plan for the user to approve, edit or reject the plan. */
  reviewPlan: z.boolean(),
});
export type ApprovalSettings = z.infer<typeof approvalSettingsSchema>;

/** The context windows a user may set, in tokens: Settings, or a host's flag for one run. */
export const contextWindowRange = { min: 1024, max: 10_000_000 } as const;

export const publicSettingsSchema = z.object({
  baseUrl: z.string(),
  model: z.string(),
  /** null: automatic, learned from the server (see LearnedContextWindow). */
  contextWindow: z.number().int().positive().nullable(),
  toolMode: toolModeSchema,
  /** Attempts after the first for a model call that failed in a way worth retrying (429, 5xx, a dropped or stalled stream). */
  retries: z.number().int().min(0).max(10),
  promptCaching: promptCachingSchema,
  /** The user's price for `model`; null: the server's reported cost, else the catalog's price. */
  price: userPriceSchema.nullable(),
  /** True when a key is stored (encrypted) or comes from the environment; the key itself never crosses. */
  apiKeySet: z.boolean(),
  apiKeySource: z.enum(['stored', 'environment', 'none']),
  /** The model of each phase: the default one above unless Settings names another. */
  models: phaseModelsViewSchema,
  approvals: approvalSettingsSchema,
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** The context window a run uses and where it was learned: Settings, the server, the model catalog (`table`), or the default. */
export const learnedContextWindowSchema = z.object({
  tokens: z.number().int().positive(),
  source: z.enum(['settings', 'server', 'table', 'default']),
  /** Reads after "from", e.g. "vLLM max_model_len", "Ollama num_ctx; the model supports 131,072". */
  detail: z.string(),
  /** Ollama: the context the server really runs the model at; it silently drops the start of longer prompts. */
  serverCutsAt: z.number().int().positive().optional(),
  /** What to tell the user when serverCutsAt is set: what happens and how to raise it. */
  warning: z.string().optional(),
});
export type LearnedContextWindow = z.infer<typeof learnedContextWindowSchema>;

export const recentFolderSchema = z.object({ folder: z.string(), name: z.string(), lastOpened: z.number() });
export type RecentFolder = z.infer<typeof recentFolderSchema>;

export const hostInfoSchema = z.object({
  kind: z.enum(['electron', 'browser']),
  canPickFolder: z.boolean(),
  canStoreApiKey: z.boolean(),
  /** Why the API key cannot be stored here, when it cannot. */
  apiKeyStorageNote: z.string().optional(),
  folder: z.string().nullable(),
});
export type HostInfo = z.infer<typeof hostInfoSchema>;
