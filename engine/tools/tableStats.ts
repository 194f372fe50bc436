import { z } from 'zod';
import { capNote } from './tables/cappedRows.js';
import { columnsOf, pickColumns } from './tables/columnNames.js';
import { profileColumns, type ProfiledColumn } from './tables/columnProfile.js';
import { sqlIdentifier } from './tables/sqlText.js';
import { fileReference, runCheckedQuery, sheetArgument, withTables } from './tables/tableRun.js';
import type { TableSources } from './tables/tableSources.js';
import { tablePreview } from './tables/tablePreview.js';
import { plural, tableText } from './tables/tableText.js';
import { ToolError, defineTool, type ToolResult } from './tool.js';

const maxGroups = 100;
const numberTypes = new Set(['integer', 'decimal']);
const exactDistinctBytes = 64 * 1024 * 1024;

export const tableStats = defineTool({
  name: 'table_stats',
  description:
    'Statistics of a table file: per column the nulls, distinct values, min, max, and for numbers the mean, median and sum. With ' +
    'group_by, the row count and the sum of every number column (or of `columns`) per group, largest groups first, with the ' +
    'totals over all rows — e.g. {"path": "bank.csv", "group_by": ["category"], "columns": ["amount"]} gives amount by category.',
  parameters: z.object({
    path: z.string().describe('Table file relative to the project folder.'),
    sheet: z.string().optional().describe('For a workbook: the sheet. Default: the first sheet.'),
    columns: z.array(z.string()).optional().describe('Only these columns (with group_by: the columns to sum). Default: all.'),
    group_by: z.array(z.string()).min(1).optional().describe('Columns to group by, e.g. ["category"].'),
  }),
  mutates: false,
  async run({ path, sheet, columns, group_by: groupBy }, context) {
    return withTables(context, async (tables) => {
      const source = await tables.forPath(path, sheetArgument(path, sheet));
      const all = await columnsOf(tables, path, sheet);
      const chosen = columns ? pickColumns(all, columns, 'columns') : all;
      if (groupBy) return groupedStats(tables, { path, sheet, groups: pickColumns(all, groupBy, 'group_by'), chosen, all: columns === undefined });
      const size = source.files.reduce((sum, file) => sum + file.size, 0);
      const profile = await profileColumns(tables, { from: fileReference(path, sheet), columns: chosen, exactDistinct: size <= exactDistinctBytes, numbers: true });
      return { text: [`${path}: statistics of ${plural(profile.rows, 'row')}`, tableText(profile.table)].join('\n'), preview: tablePreview(profile.table) };
    });
  },
});

interface GroupedOptions {
  path: string;
  sheet: string | undefined;
  groups: ProfiledColumn[];
  chosen: ProfiledColumn[];
  /** Whether `chosen` is every column (then only the number columns outside the groups are summed). */
  all: boolean;
}

async function groupedStats(tables: TableSources, { path, sheet, groups, chosen, all }: GroupedOptions): Promise<ToolResult> {
  const groupNames = new Set(groups.map((group) => group.name));
  const summed = chosen.filter((column) => !groupNames.has(column.name) && numberTypes.has(column.type));
  const notNumbers = all ? [] : chosen.filter((column) => !numberTypes.has(column.type));
  if (notNumbers.length > 0) throw new ToolError(`columns: ${notNumbers.map((column) => `"${column.name}" (${column.type})`).join(', ')} cannot be summed; name number columns.`);
  const keys = groups.map((group) => sqlIdentifier(group.name)).join(', ');
  const measures = ['count(*) AS "rows"', ...summed.map((column) => `sum(${sqlIdentifier(column.name)}) AS ${sqlIdentifier(`sum ${column.name}`)}`)];
  const from = fileReference(path, sheet);
  const grouped = await runCheckedQuery(tables, `SELECT ${keys}, ${measures.join(', ')} FROM ${from} GROUP BY ${keys} ORDER BY "rows" DESC, ${keys}`, { maxRows: maxGroups, maxChars: 12_000 });
  const totals = await runCheckedQuery(tables, `SELECT ${measures.join(', ')} FROM ${from}`, { maxRows: 1, maxChars: 4000 });
  const totalLine = [...groups.map((_, index) => (index === 0 ? '(all rows)' : '')), ...(totals.rows[0] ?? [])];
  const note = capNote(grouped, 'Use table_query to filter or order the groups another way.');
  const table = { columns: grouped.columns, rows: [...grouped.rows, totalLine] };
  const text = [`${path}: ${plural(grouped.total, 'group')} by ${groups.map((group) => group.name).join(', ')}`, tableText(table), ...(note ? [note] : [])].join('\n');
  // The rows in all: every group, shown or not, and the totals line.
  return { text, preview: tablePreview(table, grouped.total + 1) };
}
