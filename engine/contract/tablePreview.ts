import { z } from 'zod';

/**
 * The first rows of a table tool's result (table_query, table_read_rows…), for the activity feed to show
 * as a small table: header cells as the tool wrote them ("amount (decimal)"), rows as text.
 */
export const tablePreviewSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** Rows of the result not in the preview. */
  more: z.number().int().nonnegative(),
});
export type TablePreview = z.infer<typeof tablePreviewSchema>;
