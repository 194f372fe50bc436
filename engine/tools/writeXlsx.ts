import { z } from 'zod';
import { sheetNamesProblem } from './tables/sheetNames.js';
import { sheetToWrite } from './tables/sheetPlans.js';
import { withTables } from './tables/tableRun.js';
import { plural } from './tables/tableText.js';
import { xlsxTypes } from './tables/workbookCells.js';
import { writeWorkbook, type WrittenSheet } from './tables/workbookWriter.js';
import { formatSize } from '../files/fileSize.js';
import { ToolError, defineTool } from './tool.js';

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const column = z.object({
  name: z.string().describe('Column name, written in the header row.'),
  type: z.enum(xlsxTypes).optional().describe('integer, decimal, date (YYYY-MM-DD), datetime, text or boolean. Default: from the values or the query.'),
  number_format: z.string().optional().describe('Excel number format, e.g. "#,##0.00 €" or "dd.mm.yyyy". Default: #,##0.00## for decimals, yyyy-mm-dd for dates.'),
  width: z.number().min(1).max(255).optional().describe('Column width in characters. Default: fitted to the header and the first rows.'),
});

const sheet = z.object({
  name: z.string().describe('Sheet name: at most 31 characters, none of [ ] : * ? / \\, unique without regard to case, not "History".'),
  rows: z
    .array(z.union([z.array(cell), z.record(z.string(), cell)]))
    .optional()
    .describe('Literal rows: arrays in the order of `columns` (or after a first row of column names), or objects keyed by column name.'),
  query: z.string().optional().describe("Instead of rows: a read-only table_query SQL whose result fills the sheet, e.g. SELECT * FROM 'bank.csv' WHERE category = 'Food'."),
  columns: z.array(column).optional().describe('The columns for literal rows; for a query, settings for some of its columns by name.'),
  freeze_header: z.boolean().default(true).describe('Keep the header row visible when scrolling. Default true.'),
  totals: z.union([z.boolean(), z.array(z.string())]).optional().describe('A totals row of SUM formulas under the data: true for every number column, or the column names.'),
});

export const writeXlsx = defineTool({
  name: 'write_xlsx',
  description:
    'Create an Excel workbook (.xlsx), or replace one, with one or more sheets. Each sheet comes from literal rows or from a ' +
    'table_query SQL over the folder\'s tables; numbers stay numbers and dates stay dates (real Excel cells, not text). The header ' +
    'row is bold (and frozen unless freeze_header is false), columns get number formats and widths, and totals adds a row of ' +
    'SUM formulas. Sheet names are checked as Excel checks them and a bad one is refused with the rule it broke. Each sheet: ' +
    'name; rows (arrays in column order, or objects by column name) or query; columns [{name, type, number_format, width}]; ' +
    'freeze_header; totals (true or column names). Example: {"path": "out/expenses.xlsx", "sheets": [{"name": "Food", "query": ' +
    '"SELECT date, description, amount FROM \'bank.csv\' WHERE category = \'Food\'", "columns": [{"name": "amount", ' +
    '"number_format": "#,##0.00"}], "totals": true}, {"name": "Notes", "columns": [{"name": "note"}], "rows": [["Checked with the bank"]]}]}.',
  parameters: z.object({
    path: z.string().describe('Workbook path relative to the project folder, ending in .xlsx; missing folders are created.'),
    sheets: z.array(sheet).min(1).max(255).describe('The sheets, in tab order.'),
  }),
  mutates: true,
  async run({ path, sheets }, context) {
    if (!/\.xlsx$/i.test(path)) throw new ToolError(`write_xlsx writes .xlsx workbooks; "${path}" does not end in .xlsx.`);
    const problem = sheetNamesProblem(sheets.map((each) => each.name));
    if (problem) throw new ToolError(`Refused: ${problem} Rename the sheet and call write_xlsx again.`);
    const target = await context.workspace.resolve(path, 'write');
    const { data, sheets: written } = await withTables(context, (tables) => writeWorkbook(sheets.map((args) => () => sheetToWrite(tables, args))));
    const { created } = await context.workspace.writeFile(target, data);
    return { text: `${created ? 'Created' : 'Replaced'} ${target.rel} (${formatSize(data.length)}): ${written.map(sheetSummary).join('; ')}.` };
  },
});

function sheetSummary(sheet: WrittenSheet): string {
  const totals = sheet.totals.length > 0 ? `, totals of ${sheet.totals.join(', ')}` : '';
  return `sheet "${sheet.name}" ${plural(sheet.rows, 'row')} × ${plural(sheet.columns, 'column')}${totals}`;
}
