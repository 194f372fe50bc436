/** The tabular formats the table tools read. */
export type TableFormat = 'csv' | 'xlsx' | 'parquet' | 'jsonl';

const byExtension: readonly [RegExp, TableFormat][] = [
  [/\.(csv|tsv|tab|psv)(\.(gz|zst))?$/i, 'csv'],
  [/\.(xlsx|xlsm)$/i, 'xlsx'],
  [/\.(parquet|pq)$/i, 'parquet'],
  [/\.(jsonl|ndjson)(\.(gz|zst))?$/i, 'jsonl'],
];

/** Files that look tabular but cannot be read, with what to do instead. */
const unreadable: readonly [RegExp, string][] = [
  [/\.xls$/i, 'an Excel 97–2003 workbook (.xls), which is not read; save it as .xlsx'],
  [/\.xlsb$/i, 'a binary Excel workbook (.xlsb), which is not read; save it as .xlsx'],
  [/\.ods$/i, 'an OpenDocument spreadsheet (.ods), which is not read; save it as .xlsx or .csv'],
];

export const formatNames: Readonly<Record<TableFormat, string>> = {
  csv: 'CSV',
  xlsx: 'Excel workbook',
  parquet: 'Parquet',
  jsonl: 'JSON lines',
};

/** The format of a file by its name, or null when it is not a table file. */
export function tableFormatOf(name: string): TableFormat | null {
  return byExtension.find(([pattern]) => pattern.test(name))?.[1] ?? null;
}

/** Why a spreadsheet-like file cannot be read, or null. */
export function unreadableTableReason(name: string): string | null {
  return unreadable.find(([pattern]) => pattern.test(name))?.[1] ?? null;
}

export const readableExtensions = '.csv, .tsv, .tab, .psv (also .gz), .xlsx, .xlsm, .parquet, .jsonl, .ndjson';
