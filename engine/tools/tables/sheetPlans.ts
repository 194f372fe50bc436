import { ToolError } from '../tool.js';
import { QueryChecker } from './queryChecker.js';
import { resultCells, resultColumnTypes } from './queryCells.js';
import type { TableSources } from './tableSources.js';
import { defaultNumberFormats, inferredType, typedCell, type XlsxCell, type XlsxType } from './workbookCells.js';
import type { SheetColumn, SheetToWrite } from './workbookWriter.js';

export type LiteralCell = string | number | boolean | null;

export interface ColumnArgs {
  name: string;
  type?: XlsxType | undefined;
  number_format?: string | undefined;
  width?: number | undefined;
}

/** One sheet as write_xlsx takes it from the model. */
export interface SheetArgs {
  name: string;
  rows?: (LiteralCell[] | Record<string, LiteralCell>)[] | undefined;
  query?: string | undefined;
  columns?: ColumnArgs[] | undefined;
  freeze_header: boolean;
  totals?: boolean | string[] | undefined;
}

/** Turns a sheet's arguments into what the writer takes: its columns typed, its rows from the literal values or a checked query. */
export async function sheetToWrite(tables: TableSources, args: SheetArgs): Promise<SheetToWrite> {
  const where = `sheet "${args.name}"`;
  if ((args.rows === undefined) === (args.query === undefined)) throw new ToolError(`${where}: give either rows or query (exactly one of them).`);
  const { columns, rows } = args.query !== undefined ? await queryRows(tables, args, args.query) : literalRows(args, args.rows ?? []);
  return { name: args.name, columns, rows, freezeHeader: args.freeze_header, totals: totalsOf(args, columns) };
}

async function queryRows(tables: TableSources, args: SheetArgs, sql: string): Promise<Pick<SheetToWrite, 'columns' | 'rows'>> {
  const prepared = await new QueryChecker(tables).prepare(sql);
  const result = await tables.session.guarded(() => prepared.stream());
  const names = result.columnNames();
  const types = resultColumnTypes(result);
  const specs = new Map((args.columns ?? []).map((spec) => [spec.name, spec]));
  for (const name of specs.keys()) {
    if (!names.includes(name)) throw new ToolError(`sheet "${args.name}": columns names "${name}", which the query does not return; it returns ${names.join(', ')}.`);
  }
  const columns = names.map((name, index) => sheetColumn(name, specs.get(name), types[index]!));
  const converted = columns.map((column, index) => column.type !== types[index]);
  async function* rows(): AsyncGenerator<XlsxCell[]> {
    let number = 0;
    for await (const cells of resultCells(tables.session, result)) {
      number += 1;
      yield converted.some(Boolean) ? cells.map((cell, index) => (converted[index] ? typedCell(cell, columns[index]!.type, cellName(args.name, number, columns[index]!.name)) : cell)) : cells;
    }
  }
  return { columns, rows: rows() };
}

function literalRows(args: SheetArgs, given: readonly (LiteralCell[] | Record<string, LiteralCell>)[]): Pick<SheetToWrite, 'columns' | 'rows'> {
  let body = given;
  let names = args.columns?.map((column) => column.name);
  if (!names) {
    const first = given[0];
    if (Array.isArray(first)) {
      if (!first.every((cell) => typeof cell === 'string')) throw new ToolError(`sheet "${args.name}": name the columns (columns: [{"name": …}]) or make the first row the column names.`);
      names = first as string[];
      body = given.slice(1);
    } else names = [...new Set(given.flatMap((row) => Object.keys(row)))];
  }
  const ordered = body.map((row, index) => rowValues(args.name, names, row, index + 1));
  const specs = new Map((args.columns ?? []).map((spec) => [spec.name, spec]));
  const columns = names.map((name, index) => sheetColumn(name, specs.get(name), inferredType(ordered.map((row) => row[index]))));
  const typed = ordered.map((row, number) => columns.map((column, index) => typedCell(row[index], column.type, cellName(args.name, number + 1, column.name))));
  return { columns, rows: fromArray(typed) };
}

function rowValues(sheet: string, names: readonly string[], row: LiteralCell[] | Record<string, LiteralCell>, number: number): LiteralCell[] {
  if (Array.isArray(row)) {
    if (row.length > names.length) throw new ToolError(`sheet "${sheet}", row ${number}: ${row.length} values, but ${names.length} columns are named.`);
    return row;
  }
  const unknown = Object.keys(row).find((key) => !names.includes(key));
  if (unknown !== undefined) throw new ToolError(`sheet "${sheet}", row ${number}: "${unknown}" is not one of the columns (${names.join(', ')}).`);
  return names.map((name) => row[name] ?? null);
}

function sheetColumn(name: string, spec: ColumnArgs | undefined, fallback: XlsxType): SheetColumn {
  const type = spec?.type ?? fallback;
  return { name, type, numberFormat: spec?.number_format ?? defaultNumberFormats[type], width: spec?.width ?? null };
}

function totalsOf(args: SheetArgs, columns: readonly SheetColumn[]): string[] {
  const numeric = columns.filter((column) => column.type === 'integer' || column.type === 'decimal').map((column) => column.name);
  if (args.totals === undefined || args.totals === false) return [];
  if (args.totals === true) return numeric;
  const notNumeric = args.totals.filter((name) => !numeric.includes(name));
  if (notNumeric.length > 0) throw new ToolError(`sheet "${args.name}": totals names ${notNumeric.map((name) => `"${name}"`).join(', ')}, which ${notNumeric.length === 1 ? 'is not a number column' : 'are not number columns'}; number columns: ${numeric.join(', ') || 'none'}.`);
  return args.totals;
}

function cellName(sheet: string, row: number, column: string): string {
  return `sheet "${sheet}", row ${row}, column "${column}"`;
}

async function* fromArray(rows: readonly XlsxCell[][]): AsyncGenerator<XlsxCell[]> {
  yield* rows;
}
