import type JSZip from 'jszip';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { parseCell } from './cellRange.js';
import { partChunks } from './officeZip.js';
import { excelSerialToDate } from './xlsxCellFormats.js';
import { localAttributes, localName } from './xmlTree.js';

/** A cell's value as the table tools use it: Excel's cached result for a formula, text for rich text. */
export type SheetCell = number | string | boolean | Date | null;

export interface SheetRow {
  /** The row number in the sheet, 1-based. */
  number: number;
  /** Column A first; missing cells are null. */
  cells: SheetCell[];
  /** Whether a cell sums up a range (=SUM(C4:C40), SUBTOTAL, AVERAGE…): at the bottom of a table, a totals row. */
  aggregates: boolean;
}

export interface SheetReading {
  zip: JSZip;
  part: string;
  sharedStrings: readonly string[];
  /** Cell formats (by index) that show numbers as dates. */
  dateFormats: ReadonlySet<number>;
  date1904: boolean;
  /** Counted while reading: cells holding an error (#DIV/0!, #N/A…), read as empty. */
  counts: { errorCells: number };
  signal: AbortSignal;
}

const aggregateFormula = /^\s*(SUM|SUBTOTAL|AGGREGATE|AVERAGE|COUNTA?|MIN|MAX)\s*\(\s*\$?[A-Z]{1,3}\$?\d+\s*:/i;

interface OpenCell {
  column: number;
  type: string;
  format: number;
  value: string;
  formula: string | null;
  /** Which element's text is being collected. */
  into: 'value' | 'formula' | null;
}

/**
 * The rows of one sheet, streamed from its XML part (unpacked chunk by chunk as rows are taken), so
 * memory stays bounded by a chunk's rows, not the sheet. Cell values follow SpreadsheetML: shared and
 * inline strings, booleans, errors, cached formula results, and numbers in a date format as dates.
 */
export async function* readSheetRows(reading: SheetReading): AsyncGenerator<SheetRow> {
  const ready: SheetRow[] = [];
  let row: SheetRow | null = null;
  let cell: OpenCell | null = null;
  let lastRow = 0;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    const attrs = localAttributes((tag as SaxesTagPlain).attributes);
    if (name === 'row') {
      lastRow = attrs['r'] ? Number(attrs['r']) : lastRow + 1;
      row = { number: lastRow, cells: [], aggregates: false };
    } else if (name === 'c' && row) {
      const column = parseCell(attrs['r'] ?? '')?.column ?? row.cells.length + 1;
      cell = { column, type: attrs['t'] ?? 'n', format: Number(attrs['s'] ?? 0), value: '', formula: null, into: null };
    } else if (cell && (name === 'v' || name === 't')) cell.into = 'value';
    else if (cell && name === 'f') {
      cell.formula = '';
      cell.into = 'formula';
    }
  });
  parser.on('text', (text) => {
    if (cell?.into === 'value') cell.value += text;
    else if (cell?.into === 'formula') cell.formula += text;
  });
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    if (cell && (name === 'v' || name === 't' || name === 'f')) cell.into = null;
    else if (name === 'c' && cell && row) {
      while (row.cells.length < cell.column - 1) row.cells.push(null);
      row.cells[cell.column - 1] = cellValue(cell, reading);
      row.aggregates ||= cell.formula !== null && aggregateFormula.test(cell.formula);
      cell = null;
    } else if (name === 'row' && row) {
      ready.push(row);
      row = null;
    }
  });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of partChunks(reading.zip, reading.part)) {
    reading.signal.throwIfAborted();
    parser.write(decoder.decode(chunk, { stream: true }));
    yield* ready.splice(0);
  }
}

function cellValue(cell: OpenCell, { sharedStrings, dateFormats, date1904, counts }: SheetReading): SheetCell {
  const text = cell.value;
  switch (cell.type) {
    case 's':
      return sharedStrings[Number(text)] ?? null;
    case 'inlineStr':
    case 'str':
      return text;
    case 'b':
      return text === '' ? null : text === '1' || text === 'true';
    case 'e':
      counts.errorCells += 1;
      return null;
    case 'd': {
      const date = new Date(text.endsWith('Z') || text.length <= 10 ? text : `${text}Z`);
      return Number.isNaN(date.getTime()) ? text : date;
    }
    default: {
      if (text.trim() === '') return null;
      const number = Number(text);
      if (!Number.isFinite(number)) return text;
      return dateFormats.has(cell.format) ? excelSerialToDate(number, date1904) : number;
    }
  }
}
