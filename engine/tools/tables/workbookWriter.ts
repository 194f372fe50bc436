import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import { ToolError } from '../tool.js';
import { columnLetters } from './cellRange.js';
import { withoutFloatNoise } from './cellText.js';
import type { XlsxCell, XlsxType } from './workbookCells.js';

export interface SheetColumn {
  name: string;
  type: XlsxType;
  /** An Excel number format ("#,##0.00", "dd.mm.yyyy"); null for General. */
  numberFormat: string | null;
  /** In characters; null to fit the header and the first rows. */
  width: number | null;
}

export interface SheetToWrite {
  name: string;
  columns: readonly SheetColumn[];
  rows: AsyncIterable<readonly XlsxCell[]>;
  freezeHeader: boolean;
  /** Columns that get a SUM formula in a totals row under the data; none, no totals row. */
  totals: readonly string[];
}

export interface WrittenSheet {
  name: string;
  rows: number;
  columns: number;
  totals: readonly string[];
}

/** Excel's last row is 1,048,576: the header and a totals row leave this many for data. */
const maxDataRows = 1_048_574;
/** Rows looked at to size columns that name no width. */
const sizingRows = 200;

/**
 * Writes a workbook with exceljs's streaming writer: each sheet a bold header row (frozen if asked),
 * typed cells with their number formats, and an optional totals row of SUM formulas that carry their
 * computed result, so readers without a formula engine see the totals too. Each sheet is made when its
 * turn comes and its rows are streamed; only the compressed workbook is held in memory.
 */
export async function writeWorkbook(sheets: readonly (() => Promise<SheetToWrite>)[]): Promise<{ data: Buffer; sheets: WrittenSheet[] }> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  // Loaded at the first workbook written: the library takes longer to load than most commands take to run.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const written: WrittenSheet[] = [];
  // One sheet at a time: a sheet's rows may stream from a query, and a connection runs one query at a time.
  for (const sheet of sheets) written.push(await writeSheet(workbook, await sheet()));
  await workbook.commit();
  return { data: Buffer.concat(chunks), sheets: written };
}

async function writeSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: SheetToWrite): Promise<WrittenSheet> {
  const worksheet = workbook.addWorksheet(sheet.name, { views: sheet.freezeHeader ? [{ state: 'frozen', ySplit: 1, xSplit: 0 }] : [] });
  const iterator = sheet.rows[Symbol.asyncIterator]();
  const firstRows: (readonly XlsxCell[])[] = [];
  while (firstRows.length < sizingRows) {
    const next = await iterator.next();
    if (next.done) break;
    firstRows.push(next.value);
  }
  worksheet.columns = sheet.columns.map((column, index) => ({ key: `c${index}`, width: column.width ?? fittedWidth(column, index, firstRows) }));
  const header = worksheet.addRow(sheet.columns.map((column) => column.name));
  header.font = { bold: true };
  header.commit();
  const sums = sheet.columns.map(() => 0);
  let rows = 0;
  const add = (cells: readonly XlsxCell[]) => {
    if ((rows += 1) > maxDataRows) throw new ToolError(`sheet "${sheet.name}" would have more than ${maxDataRows.toLocaleString('en-US')} rows, more than Excel can hold; split it or aggregate.`);
    const row = worksheet.addRow(sheet.columns.map((_, index) => cells[index] ?? null));
    sheet.columns.forEach((column, index) => {
      if (column.numberFormat) row.getCell(index + 1).numFmt = column.numberFormat;
      const value = cells[index];
      if (typeof value === 'number') sums[index]! += value;
    });
    row.commit();
  };
  firstRows.forEach(add);
  if (firstRows.length === sizingRows) for (let next = await iterator.next(); !next.done; next = await iterator.next()) add(next.value);
  if (sheet.totals.length > 0 && rows > 0) addTotals(worksheet, sheet, rows, sums);
  worksheet.commit();
  return { name: sheet.name, rows, columns: sheet.columns.length, totals: rows > 0 ? sheet.totals : [] };
}

function addTotals(worksheet: ExcelJS.Worksheet, sheet: SheetToWrite, rows: number, sums: readonly number[]): void {
  const summed = new Set(sheet.totals);
  const labelAt = sheet.columns.findIndex((column) => !summed.has(column.name));
  const cells = sheet.columns.map((column, index): ExcelJS.CellValue => {
    if (summed.has(column.name)) {
      const letters = columnLetters(index + 1);
      return { formula: `SUM(${letters}2:${letters}${rows + 1})`, result: withoutFloatNoise(sums[index]!) };
    }
    return index === labelAt ? 'Total' : null;
  });
  const row = worksheet.addRow(cells);
  row.font = { bold: true };
  sheet.columns.forEach((column, index) => {
    if (column.numberFormat && summed.has(column.name)) row.getCell(index + 1).numFmt = column.numberFormat;
  });
  row.commit();
}

function fittedWidth(column: SheetColumn, index: number, rows: readonly (readonly XlsxCell[])[]): number {
  const widest = rows.reduce((most, row) => Math.max(most, displayLength(row[index] ?? null, column.type)), column.name.length);
  return Math.min(60, Math.max(8, widest + 2));
}

function displayLength(value: XlsxCell, type: XlsxType): number {
  if (value === null) return 0;
  if (value instanceof Date) return type === 'datetime' ? 19 : 10;
  if (typeof value === 'number') return value.toFixed(2).length + Math.floor(Math.log10(Math.max(Math.abs(value), 1)) / 3);
  return String(value).length;
}
