import { z } from 'zod';

export const phaseSchema = z.enum(['research', 'plan', 'implement', 'summary']);
export type Phase = z.infer<typeof phaseSchema>;

export const messageSchema = z.object({
  id: z.string().min(1),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  ts: z.number(),
});
export type Message = z.infer<typeof messageSchema>;

export const planItemStatusSchema = z.enum(['pending', 'done', 'failed']);
export type PlanItemStatus = z.infer<typeof planItemStatusSchema>;

export const planItemSchema = z.object({
  /** Position in file order (0-based); the number in the file is only a label. */
  index: z.number().int().nonnegative(),
  number: z.number().int().nonnegative(),
  /** The short name before the dash, e.g. "Parse statement". */
  label: z.string(),
  description: z.string(),
  status: planItemStatusSchema,
  failure: z.string().optional(),
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
});
export type RpiState = z.infer<typeof rpiStateSchema>;

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
});
export type Snapshot = z.infer<typeof snapshotSchema>;

export const toolModeSchema = z.enum(['native', 'text', 'auto'], { error: 'must be "native", "text" or "auto"' });
export type ToolMode = z.infer<typeof toolModeSchema>;

export const publicSettingsSchema = z.object({
  baseUrl: z.string(),
  model: z.string(),
  contextWindow: z.number().int().positive(),
  toolMode: toolModeSchema,
  /** True when a key is stored (encrypted) or comes from the environment; the key itself never crosses. */
  apiKeySet: z.boolean(),
  apiKeySource: z.enum(['stored', 'environment', 'none']),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

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
