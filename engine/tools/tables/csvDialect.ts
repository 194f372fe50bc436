import type { Json } from '@duckdb/node-api';
import type { Workspace } from '../../workspace/workspace.js';
import type { DuckSession } from './duckSession.js';
import { sqlIdentifier, sqlString, sqlStringList } from './sqlText.js';
import type { TableFile } from './tableFiles.js';
import { detectEncoding, type DetectedEncoding } from './textEncoding.js';

/** How a CSV file is written, as detected: what read_csv needs to read it right. */
export interface CsvDialect {
  delimiter: string;
  quote: string;
  escape: string;
  comment: string;
  hasHeader: boolean;
  /** Lines before the header (a title, an account number…). */
  skipRows: number;
  dateFormat: string | null;
  timestampFormat: string | null;
  encoding: DetectedEncoding;
  /** Columns of numbers written with a decimal comma ("-1.234,56"); they are read as numbers. */
  decimalCommaColumns: string[];
  /** Column names as the sniffer found them. */
  columnNames: string[];
}

const headBytes = 64 * 1024;
const sampleRows = 2000;
const decimalComma = /^[-+]?(\d{1,3}(\.\d{3})+|\d+),\d+$/;
const thousandsDotted = /^[-+]?\d{1,3}(\.\d{3})+$/;
const wholeNumber = /^[-+]?\d+$/;

/** Detects a CSV file's dialect with DuckDB's sniffer, plus what it leaves out: the encoding and decimal commas. */
export async function detectCsvDialect(session: DuckSession, workspace: Workspace, file: TableFile): Promise<CsvDialect> {
  const encoding = /\.(gz|zst)$/i.test(file.real) ? { encoding: 'utf-8' as const, bom: false } : await encodingOf(workspace, file);
  const encodingOption = encoding.encoding === 'utf-8' ? '' : `, encoding = ${sqlString(encoding.encoding)}`;
  const [sniffed] = await session.jsonRows(`SELECT * FROM sniff_csv(${sqlString(file.real)}${encodingOption})`);
  const text = (value: Json | undefined) => (typeof value === 'string' && value !== '(empty)' ? value : '');
  const dialect: CsvDialect = {
    delimiter: text(sniffed?.['Delimiter']) || ',',
    quote: text(sniffed?.['Quote']),
    escape: text(sniffed?.['Escape']),
    comment: text(sniffed?.['Comment']),
    hasHeader: sniffed?.['HasHeader'] === true,
    skipRows: Number(sniffed?.['SkipRows'] ?? 0),
    dateFormat: text(sniffed?.['DateFormat']) || null,
    timestampFormat: text(sniffed?.['TimestampFormat']) || null,
    encoding,
    decimalCommaColumns: [],
    columnNames: [],
  };
  const columns = Array.isArray(sniffed?.['Columns']) ? (sniffed['Columns'] as { name: string; type: string }[]) : [];
  dialect.columnNames = columns.map((column) => column.name);
  dialect.decimalCommaColumns = await decimalCommaColumns(session, file, dialect, columns);
  return dialect;
}

async function encodingOf(workspace: Workspace, file: TableFile): Promise<DetectedEncoding> {
  const handle = await workspace.openForRead(await workspace.resolve(file.rel, 'read'));
  try {
    const head = Buffer.alloc(headBytes);
    const { bytesRead } = await handle.read(head, 0, headBytes, 0);
    return detectEncoding(head.subarray(0, bytesRead), { complete: bytesRead < headBytes });
  } finally {
    await handle.close();
  }
}

/**
 * The text columns whose every value is a number with a decimal comma (or a whole number), and, in a
 * file that has such columns, the columns the sniffer took for decimals that really hold thousands
 * separators ("2.500" meaning 2500).
 */
async function decimalCommaColumns(session: DuckSession, file: TableFile, dialect: CsvDialect, columns: { name: string; type: string }[]): Promise<string[]> {
  const candidates = columns.filter((column) => column.type === 'VARCHAR' || column.type === 'DOUBLE');
  if (candidates.length === 0) return [];
  const sample = await session.jsonRows(`SELECT ${candidates.map((column) => sqlIdentifier(column.name)).join(', ')} FROM ${csvReadCall([file.real], dialect, { allVarchar: true })} LIMIT ${sampleRows}`);
  const valuesOf = (name: string) => sample.map((row) => String(row[name] ?? '').trim()).filter((value) => value !== '');
  const commaColumns = candidates.filter(({ name, type }) => {
    const values = valuesOf(name);
    return type === 'VARCHAR' && values.some((value) => decimalComma.test(value)) && values.every((value) => decimalComma.test(value) || thousandsDotted.test(value) || wholeNumber.test(value));
  });
  if (commaColumns.length === 0) return [];
  const dottedColumns = candidates.filter(({ name, type }) => {
    const values = valuesOf(name);
    return type === 'DOUBLE' && values.some((value) => thousandsDotted.test(value)) && values.every((value) => thousandsDotted.test(value) || wholeNumber.test(value));
  });
  return [...commaColumns, ...dottedColumns].map((column) => column.name);
}

/** The read_csv(...) call for files in this dialect; decimal-comma columns are read as text, to be converted. */
export function csvReadCall(paths: readonly string[], dialect: CsvDialect, { allVarchar = false }: { allVarchar?: boolean } = {}): string {
  return `read_csv(${paths.length === 1 ? sqlString(paths[0]!) : sqlStringList(paths)}, ${csvOptions(dialect, { allVarchar, several: paths.length > 1 })})`;
}

/** The options of csvReadCall, as the model may write them itself in table_query. */
export function csvOptions(dialect: CsvDialect, { allVarchar = false, several = false }: { allVarchar?: boolean; several?: boolean } = {}): string {
  const options = [
    `delim = ${sqlString(dialect.delimiter)}`,
    `quote = ${sqlString(dialect.quote)}`,
    `escape = ${sqlString(dialect.escape)}`,
    `header = ${dialect.hasHeader}`,
    `skip = ${dialect.skipRows}`,
  ];
  if (dialect.comment) options.push(`comment = ${sqlString(dialect.comment)}`);
  if (dialect.encoding.encoding !== 'utf-8') options.push(`encoding = ${sqlString(dialect.encoding.encoding)}`);
  if (allVarchar) options.push('all_varchar = true');
  else {
    if (dialect.dateFormat) options.push(`dateformat = ${sqlString(dialect.dateFormat)}`);
    if (dialect.timestampFormat) options.push(`timestampformat = ${sqlString(dialect.timestampFormat)}`);
    if (dialect.decimalCommaColumns.length > 0) {
      options.push(`types = {${dialect.decimalCommaColumns.map((name) => `${sqlString(name)}: 'VARCHAR'`).join(', ')}}`);
    }
  }
  if (several) options.push('union_by_name = true');
  return options.join(', ');
}

/**
 * A FROM-able SQL expression that reads the files as numbers, dates and text the way they are meant:
 * the read_csv call, wrapped in a SELECT that turns decimal-comma text into numbers.
 */
export function csvSourceSql(paths: readonly string[], dialect: CsvDialect): string {
  const call = csvReadCall(paths, dialect);
  if (dialect.decimalCommaColumns.length === 0) return call;
  const converted = dialect.decimalCommaColumns.map((name) => `${decimalCommaNumber(sqlIdentifier(name))} AS ${sqlIdentifier(name)}`);
  return `(SELECT * REPLACE (${converted.join(', ')}) FROM ${call})`;
}

/** "-1.234,56" → -1234.56; empty text → NULL. */
export function decimalCommaNumber(expression: string): string {
  return `CAST(NULLIF(replace(replace(trim(${expression}), '.', ''), ',', '.'), '') AS DOUBLE)`;
}
