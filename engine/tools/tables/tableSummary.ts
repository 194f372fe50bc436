import { formatSize } from '../../files/fileSize.js';
import { rangeName } from './cellRange.js';
import { openOfficeZip } from './officeZip.js';
import { formatNames, type TableFormat } from './tableFormats.js';
import type { TableFile } from './tableFiles.js';
import type { TableSources } from './tableSources.js';
import { count, plural } from './tableText.js';
import { scanSheet, workbookParts } from './xlsxStructure.js';
import { shownName } from '../../workspace/shownName.js';

export interface SummaryBudget {
  /** Bytes left for exact row counts in this map; larger files get an estimate from their first megabyte. */
  exactCountBytes: number;
}

/** Files up to this size are always counted exactly. */
const alwaysExactBytes = 32 * 1024 * 1024;
const estimateSampleBytes = 1024 * 1024;
const shownColumnNames = 12;

/** One table file in a line (a workbook: a line per sheet): format, size, rows × columns, column names. */
export async function summariseTableFile(tables: TableSources, file: TableFile, budget: SummaryBudget): Promise<string> {
  const head = `${shownName(file.rel)} — ${formatNames[file.format]}, ${formatSize(file.size)}`;
  if (file.format === 'xlsx') return `${head}${await sheetLines(tables, file)}`;
  const source = await tables.forFiles([file]);
  const names = source.detail.format === 'csv' ? source.detail.dialect.columnNames : await columnNamesOf(tables, source.sql);
  const rows = await rowCount(tables, file, source.sql, budget);
  return `${head}, ${rows} × ${plural(names.length, 'column')}: ${namesText(names)}`;
}

async function sheetLines(tables: TableSources, file: TableFile): Promise<string> {
  const zip = await openOfficeZip(tables.workspace, file);
  const { sheets } = await workbookParts(zip, file.requested);
  const lines: string[] = [];
  for (const sheet of sheets) {
    // A writer that records no used range (exceljs's streaming one) leaves only a full read to find it.
    const head = await scanSheet(zip, sheet.part, { full: false });
    const declared = head.declared ?? (await scanSheet(zip, sheet.part, { full: true })).used;
    const size = declared ? `${rangeName(declared)} (${plural(declared.lastRow - declared.firstRow + 1, 'row')} × ${plural(declared.lastColumn - declared.firstColumn + 1, 'column')}, header included)` : 'empty';
    lines.push(`\n  sheet "${sheet.name}"${sheet.hidden ? ' (hidden)' : ''}: ${size}`);
  }
  return `, ${plural(sheets.length, 'sheet')}:${lines.join('')}`;
}

async function columnNamesOf(tables: TableSources, sourceSql: string): Promise<string[]> {
  const rows = await tables.session.jsonRows(`DESCRIBE SELECT * FROM ${sourceSql}`);
  return rows.map((row) => String(row['column_name']));
}

/** "143 rows", or "~21,000,000 rows (estimated)" for a large text file once the exact-count budget is spent. */
async function rowCount(tables: TableSources, file: TableFile, sourceSql: string, budget: SummaryBudget): Promise<string> {
  const textual: readonly TableFormat[] = ['csv', 'jsonl'];
  const compressed = /\.(gz|zst)$/i.test(file.real);
  if (textual.includes(file.format) && !compressed && file.size > alwaysExactBytes && file.size > budget.exactCountBytes) {
    return `~${count(await estimatedLines(tables, file))} rows (estimated from the first megabyte)`;
  }
  if (textual.includes(file.format)) budget.exactCountBytes -= file.size;
  const [row] = await tables.session.rows(`SELECT count(*) FROM ${sourceSql}`);
  return plural(Number(row?.[0] ?? 0), 'row');
}

async function estimatedLines(tables: TableSources, file: TableFile): Promise<number> {
  const handle = await tables.workspace.openForRead(await tables.workspace.resolve(file.rel, 'read'));
  try {
    const head = Buffer.alloc(estimateSampleBytes);
    const { bytesRead } = await handle.read(head, 0, estimateSampleBytes, 0);
    let lines = 0;
    for (let index = head.indexOf(10); index !== -1 && index < bytesRead; index = head.indexOf(10, index + 1)) lines += 1;
    return Math.round((file.size / Math.max(bytesRead, 1)) * Math.max(lines, 1));
  } finally {
    await handle.close();
  }
}

function namesText(names: readonly string[]): string {
  const shown = names.slice(0, shownColumnNames).join(', ');
  return names.length > shownColumnNames ? `${shown}, … (${names.length - shownColumnNames} more)` : shown;
}
