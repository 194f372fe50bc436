import { z } from 'zod';

/** One conversation of a folder, as the list beside the chat and `conversations --json` show it. */
export const conversationSummarySchema = z.object({
  id: z.string(),
  /** The user's title, else the first request's first line; one line, control characters made spaces. */
  title: z.string(),
  /** ms since the epoch. */
  created: z.number(),
  /** The last activity: its latest message, else its creation. */
  updated: z.number(),
  /** How many requests (user messages) it holds. */
  requests: z.number().int().nonnegative(),
  /** True while the folder's one run is a run of this conversation. */
  running: z.boolean(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;
