import { ToolError } from '../tool.js';
import type { Workspace } from '../../workspace/workspace.js';
import { parseRange, type CellRange } from './cellRange.js';
import type { DuckSession } from './duckSession.js';
import { openOfficeZip } from './officeZip.js';
import { StagedLoad } from './sheetStaging.js';
import type { TableFile } from './tableFiles.js';
import { guessHeader } from './xlsxHeader.js';
import { dateCellFormats, sharedStrings } from './xlsxCellFormats.js';
import { readSheetRows, type SheetRow } from './xlsxRows.js';
import { scanSheet, workbookParts, type SheetScan, type WorkbookSheet } from './xlsxStructure.js';

export interface SheetLoadOptions {
  /** Sheet name (case does not matter); the first sheet when left out. */
  sheet?: string;
  /** Whether the table has a header row; guessed when left out. */
  header?: boolean;
  /** Only these cells, e.g. "A3:F200". */
  range?: string;
  /** Every column as text. */
  allVarchar?: boolean;
}

export interface LoadedSheet {
  /** The in-memory DuckDB table that now holds the sheet's table. */
  table: string;
  sheet: WorkbookSheet;
  sheets: WorkbookSheet[];
  scan: SheetScan;
  names: string[];
  /** Sheet row number of the header row, or null. */
  headerRow: number | null;
  /** Text of the rows above the table (titles), by row number. */
  titleRows: { row: number; text: string }[];
  /** Rows at the bottom that sum up the table (a formula such as =SUM(C4:C40)), left out of it. */
  totalsRows: number[];
  rows: number;
  emptyRowsSkipped: number;
  errorCells: number;
}

/** How far into the sheet the header is looked for. */
const headRows = 30;

/**
 * Loads one sheet's table into an in-memory DuckDB table, typed as Excel stored it: numbers stay
 * numbers, dates dates, booleans booleans; a column holding more than one kind becomes text. Rows are
 * streamed into a staging table with one column per kind, so nothing but the first rows is held here.
 */
export async function loadSheet(session: DuckSession, workspace: Workspace, file: TableFile, options: SheetLoadOptions, table: string, signal: AbortSignal): Promise<LoadedSheet> {
  const zip = await openOfficeZip(workspace, file);
  const parts = await workbookParts(zip, file.requested);
  const sheet = chosenSheet(parts.sheets, file.requested, options.sheet);
  const scan = await scanSheet(zip, sheet.part, { full: false });
  const range = options.range === undefined ? null : parseRange(options.range);
  if (options.range !== undefined && range === null) throw new ToolError(`range "${options.range}" is not a cell range like "A3:F200".`);
  const counts = { errorCells: 0 };
  const [strings, dateFormats] = await Promise.all([sharedStrings(zip, parts.sharedStringsPart), dateCellFormats(zip, parts.stylesPart, file.requested)]);
  const reading = { zip, part: sheet.part, counts, signal, date1904: parts.date1904, sharedStrings: strings, dateFormats };
  const rows = inRange(readSheetRows(reading), range)[Symbol.asyncIterator]();
  try {
    const loaded = await loadRows(session, rows, { table, declaredWidth: scan.declared?.lastColumn ?? 0, range, options });
    return { table, sheet, sheets: parts.sheets, scan, ...loaded, errorCells: counts.errorCells };
  } finally {
    await rows.return(undefined);
  }
}

function chosenSheet(sheets: readonly WorkbookSheet[], requested: string, name: string | undefined): WorkbookSheet {
  const sheet = name === undefined ? sheets[0] : sheets.find((each) => each.name.toLowerCase() === name.toLowerCase());
  if (sheet) return sheet;
  const names = sheets.map((each) => `"${each.name}"`).join(', ');
  throw new ToolError(name === undefined ? `${requested} has no sheets.` : `${requested} has no sheet "${name}"; its sheets are ${names}.`);
}

interface RowsToLoad {
  table: string;
  declaredWidth: number;
  range: CellRange | null;
  options: SheetLoadOptions;
}

/** Finds the header in the first rows, then stages every row of data below it; totals rows at the bottom are left out. */
async function loadRows(session: DuckSession, rows: AsyncIterator<SheetRow>, { table, declaredWidth, range, options }: RowsToLoad) {
  const head: SheetRow[] = [];
  while (head.length < headRows) {
    const next = await rows.next();
    if (next.done) break;
    head.push(next.value);
  }
  const width = range ? range.lastColumn - range.firstColumn + 1 : Math.max(declaredWidth, ...head.map((row) => row.cells.length));
  const guess = guessHeader(head, width, options.header);
  const loader = await StagedLoad.begin(session, width);
  let emptyRowsSkipped = 0;
  // A row that sums up a range is held back until a row of data follows it: at the very end it is a totals row.
  const held: SheetRow[] = [];
  const take = (row: SheetRow) => {
    if (!row.cells.some((cell) => cell !== null && cell !== '')) emptyRowsSkipped += 1;
    else if (row.aggregates && range === null) held.push(row);
    else {
      held.splice(0).forEach((each) => loader.append(each.cells));
      loader.append(row.cells);
    }
  };
  head.slice(guess.tableStart + (guess.headerIndex === null ? 0 : 1)).forEach(take);
  if (head.length === headRows) for (let next = await rows.next(); !next.done; next = await rows.next()) take(next.value);
  return {
    rows: await loader.finish(table, guess.names, options.allVarchar ?? false),
    names: guess.names,
    headerRow: guess.headerIndex === null ? null : head[guess.headerIndex]!.number,
    titleRows: head.slice(0, guess.tableStart).flatMap((row) => titleOf(row)),
    totalsRows: held.map((row) => row.number),
    emptyRowsSkipped,
  };
}

async function* inRange(rows: AsyncGenerator<SheetRow>, range: CellRange | null): AsyncGenerator<SheetRow> {
  for await (const row of rows) {
    if (range && row.number < range.firstRow) continue;
    if (range && row.number > range.lastRow) return;
    yield range ? { ...row, cells: row.cells.slice(range.firstColumn - 1, range.lastColumn) } : row;
  }
}

function titleOf(row: SheetRow): { row: number; text: string }[] {
  const text = row.cells.filter((cell) => cell !== null && cell !== '').map(String).join(' ');
  return text ? [{ row: row.number, text }] : [];
}
