/** A rectangle of cells, 1-based and inclusive, as Excel's "B3:F120". */
export interface CellRange {
  firstRow: number;
  firstColumn: number;
  lastRow: number;
  lastColumn: number;
}

/** "AB" → 28. */
export function columnNumber(letters: string): number {
  let number = 0;
  for (const letter of letters.toUpperCase()) number = number * 26 + (letter.charCodeAt(0) - 64);
  return number;
}

/** 28 → "AB". */
export function columnLetters(number: number): string {
  let letters = '';
  for (let rest = number; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** "F12" → { row: 12, column: 6 }, or null when it is not a cell reference. */
export function parseCell(ref: string): { row: number; column: number } | null {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim());
  return match ? { column: columnNumber(match[1]!), row: Number(match[2]) } : null;
}

/** "B3:F120" (or a single cell "A1") → a range, or null when it is not one. */
export function parseRange(ref: string): CellRange | null {
  const [from, to = from] = ref.split(':');
  const first = parseCell(from ?? '');
  const last = parseCell(to ?? '');
  if (!first || !last) return null;
  return {
    firstRow: Math.min(first.row, last.row),
    firstColumn: Math.min(first.column, last.column),
    lastRow: Math.max(first.row, last.row),
    lastColumn: Math.max(first.column, last.column),
  };
}

export function cellName(row: number, column: number): string {
  return `${columnLetters(column)}${row}`;
}

export function rangeName(range: CellRange): string {
  return `${cellName(range.firstRow, range.firstColumn)}:${cellName(range.lastRow, range.lastColumn)}`;
}
