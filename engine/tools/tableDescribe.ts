import { z } from 'zod';
import { profileColumns } from './tables/columnProfile.js';
import { openOfficeZip } from './tables/officeZip.js';
import { csvNotes, sheetNotes } from './tables/sourceNotes.js';
import { formatNames } from './tables/tableFormats.js';
import { fileReference, runCheckedQuery, sheetArgument, withTables } from './tables/tableRun.js';
import type { TableSource } from './tables/tableSources.js';
import { tablePreview } from './tables/tablePreview.js';
import { plural, tableText } from './tables/tableText.js';
import { scanSheet } from './tables/xlsxStructure.js';
import type { Workspace } from '../workspace/workspace.js';
import { formatSize } from '../files/fileSize.js';
import { defineTool } from './tool.js';

const sampleRows = 5;
/** Up to this much data, distinct counts are exact; beyond, approximate (HyperLogLog), in bounded memory. */
const exactDistinctBytes = 64 * 1024 * 1024;

export const tableDescribe = defineTool({
  name: 'table_describe',
  description:
    'Describe one table file (CSV/TSV, Excel .xlsx, Parquet, JSON lines) before working with it: its columns with their types ' +
    '(integer, decimal, date, timestamp, text, boolean), null and distinct counts, min and max, and the first rows; for CSV the ' +
    'detected delimiter, header, encoding, decimal comma and date format, and how to read it in table_query; for a workbook ' +
    'the sheets, used range, header row, title rows, merged cells and formulas. Large files are read in bounded memory.',
  parameters: z.object({
    path: z.string().describe('Table file relative to the project folder, e.g. "data/bank.csv" (a pattern such as "data/*.csv" describes the files together).'),
    sheet: z.string().optional().describe('For a workbook: the sheet to describe. Default: the first sheet.'),
  }),
  mutates: false,
  async run({ path, sheet }, context) {
    return withTables(context, async (tables) => {
      const source = await tables.forPath(path, sheetArgument(path, sheet));
      const from = fileReference(path, sheet);
      const sample = await runCheckedQuery(tables, `SELECT * FROM ${from} LIMIT ${sampleRows}`, { maxRows: sampleRows, maxChars: 6000 });
      const size = source.files.reduce((sum, file) => sum + file.size, 0);
      const columns = sample.columns.map(({ name, type }) => ({ name, type: type ?? 'other' }));
      const profile = await profileColumns(tables, { from, columns, exactDistinct: size <= exactDistinctBytes, numbers: false });
      const what = source.files.length === 1 ? path : `${path} (${plural(source.files.length, 'file')})`;
      const text = [
        `${what} — ${formatNames[source.files[0]!.format]}, ${formatSize(size)}, ${plural(profile.rows, 'row')} × ${plural(columns.length, 'column')}`,
        ...(await notesFor(context.workspace, path, source)),
        '',
        'Columns:',
        tableText(profile.table),
        '',
        sample.rows.length === 0 ? 'The table has no rows.' : `First ${plural(sample.rows.length, 'row')}:`,
        ...(sample.rows.length === 0 ? [] : [tableText(sample)]),
      ].join('\n');
      return { text, preview: tablePreview(profile.table) };
    });
  },
});

async function notesFor(workspace: Workspace, path: string, source: TableSource): Promise<string[]> {
  const { detail } = source;
  if (detail.format === 'csv') return csvNotes(path, detail.dialect);
  if (detail.format === 'xlsx') {
    const zip = await openOfficeZip(workspace, source.files[0]!);
    return sheetNotes(path, detail.sheet, await scanSheet(zip, detail.sheet.sheet.part, { full: true }));
  }
  return [`In table_query: FROM '${path.replaceAll("'", "''")}'.`];
}
