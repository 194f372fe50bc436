import { columnLetters } from './cellRange.js';
import type { SheetRow } from './xlsxRows.js';

export interface HeaderGuess {
  /** Index (into the rows given) of the header row; null when the table has none. */
  headerIndex: number | null;
  /** Index of the first row of the table (the header, or the first data row without one). */
  tableStart: number;
  /** Column names: the header's text, or the column letters (A, B, …) where there is none. */
  names: string[];
}

/**
 * Finds where the table starts in a sheet's first rows: title rows above it (one filled cell, often
 * merged across the table) and blank rows are passed over, and the first row with two or more filled
 * cells starts the table. It is the header when it is all text and either the rows below hold numbers,
 * dates or booleans or its names are all different. `header` forces the answer either way.
 */
export function guessHeader(rows: readonly SheetRow[], width: number, header?: boolean): HeaderGuess {
  const filled = (row: SheetRow) => row.cells.filter((cell) => cell !== null && cell !== '').length;
  const needed = Math.min(2, width);
  const found = rows.findIndex((row) => filled(row) >= needed);
  const tableStart = found === -1 ? 0 : found;
  const first = rows[tableStart];
  const isHeader = header ?? (first !== undefined && looksLikeHeader(first, rows.slice(tableStart + 1)));
  const names = Array.from({ length: width }, (_, index) => {
    const cell = isHeader ? first?.cells[index] : null;
    const text = cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell).trim();
    return text || columnLetters(index + 1);
  });
  return { headerIndex: isHeader && first ? tableStart : null, tableStart, names: unique(names) };
}

function looksLikeHeader(row: SheetRow, below: readonly SheetRow[]): boolean {
  const values = row.cells.filter((cell) => cell !== null && cell !== '');
  if (values.length === 0 || !values.every((cell) => typeof cell === 'string')) return false;
  const typedBelow = below.some((next) => next.cells.some((cell) => cell !== null && typeof cell !== 'string'));
  return typedBelow || new Set(values).size === values.length;
}

/** Names made distinct as DuckDB would: a repeat gets "_2", "_3"… */
function unique(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}
