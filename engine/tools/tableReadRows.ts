import { z } from 'zod';
import { columnsOf, pickColumns } from './tables/columnNames.js';
import { sqlIdentifier } from './tables/sqlText.js';
import { fileReference, runCheckedQuery, sheetArgument, withTables } from './tables/tableRun.js';
import { tablePreview } from './tables/tablePreview.js';
import { count, tableText } from './tables/tableText.js';
import { defineTool } from './tool.js';

const defaultLimit = 50;
const maxLimit = 500;
const maxChars = 14_000;

export const tableReadRows = defineTool({
  name: 'table_read_rows',
  description:
    'Read rows of a table file as a compact table with the column types in the header, in file order, a page at a time: ' +
    `offset rows are skipped, then up to limit (default ${defaultLimit}, at most ${maxLimit}) are shown. Choose columns, and filter ` +
    'with where, a SQL condition such as "amount < 0 AND category = \'Groceries\'". The result says how many rows match in all ' +
    'and the offset to read on with.',
  parameters: z.object({
    path: z.string().describe('Table file relative to the project folder.'),
    sheet: z.string().optional().describe('For a workbook: the sheet. Default: the first sheet.'),
    offset: z.number().int().min(0).default(0).describe('Matching rows to skip. Default 0.'),
    limit: z.number().int().min(1).max(maxLimit).default(defaultLimit).describe(`Rows to show. Default ${defaultLimit}.`),
    columns: z.array(z.string()).optional().describe('Only these columns, in this order. Default: all.'),
    where: z.string().optional().describe("A SQL condition on the columns, e.g. \"amount < 0\" or \"description ILIKE '%rent%'\"."),
  }),
  mutates: false,
  async run({ path, sheet, offset, limit, columns, where }, context) {
    return withTables(context, async (tables) => {
      await tables.forPath(path, sheetArgument(path, sheet));
      const chosen = columns ? pickColumns(await columnsOf(tables, path, sheet), columns, 'columns') : null;
      const list = chosen ? chosen.map((column) => sqlIdentifier(column.name)).join(', ') : '*';
      const filter = where ? ` WHERE (${where})` : '';
      const from = `${fileReference(path, sheet)}${filter}`;
      const page = await runCheckedQuery(tables, `SELECT ${list} FROM ${from} LIMIT ${limit} OFFSET ${offset}`, { maxRows: limit, maxChars });
      const matching = await runCheckedQuery(tables, `SELECT count(*) FROM ${from}`, { maxRows: 1, maxChars: 100 });
      const total = Number(matching.rows[0]?.[0] ?? 0);
      const last = offset + page.rows.length;
      const which = where ? ` matching ${where}` : '';
      const preview = tablePreview(page);
      if (page.rows.length === 0) return { text: `${path}: no rows${which} after offset ${offset} (${count(total)} ${total === 1 ? 'row' : 'rows'}${which} in all).\n${tableText(page)}`, preview };
      const more = last < total ? `\n[${count(total - last)} more: call again with offset ${last}.]` : '';
      return { text: `${path}: rows ${count(offset + 1)}–${count(last)} of ${count(total)}${which}\n${tableText(page)}${more}`, preview };
    });
  },
});
