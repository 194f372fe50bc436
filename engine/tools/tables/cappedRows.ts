import type { DuckDBResult } from '@duckdb/node-api';
import { cellText, typeLabel } from './cellText.js';
import type { DuckSession } from './duckSession.js';
import type { TextTable } from './tableText.js';

export interface CappedRows extends TextTable {
  /** Every row of the result, or as many as were counted before `countForMs` ran out. */
  total: number;
  totalExact: boolean;
  /** Why fewer rows than `total` are shown. */
  cut: 'rows' | 'chars' | null;
}

export interface CapOptions {
  maxRows: number;
  maxChars: number;
  /** How long to go on counting the rows not shown. */
  countForMs?: number;
}

/**
 * Reads a streaming result: the first rows as text, up to a row and a character cap, and then only
 * counts the rest, chunk by chunk, so a result of millions of rows costs time but never memory.
 */
export async function readCapped(session: DuckSession, result: DuckDBResult, { maxRows, maxChars, countForMs = 30_000 }: CapOptions): Promise<CappedRows> {
  const columns = result.columnNames().map((name, index) => ({ name, type: typeLabel(result.columnType(index)) }));
  const rows: string[][] = [];
  let chars = 0;
  let total = 0;
  let cut: CappedRows['cut'] = null;
  const deadline = performance.now() + countForMs;
  for (;;) {
    const chunk = await session.guarded(() => result.fetchChunk());
    if (!chunk || chunk.rowCount === 0) return { columns, rows, total, totalExact: true, cut };
    total += chunk.rowCount;
    if (cut === null) {
      for (const values of chunk.getRows()) {
        if (rows.length === maxRows) cut = 'rows';
        if (cut) break;
        const row = values.map(cellText);
        chars += row.reduce((sum, cell) => sum + cell.length + 3, 0);
        if (chars > maxChars && rows.length > 0) {
          cut = 'chars';
          break;
        }
        rows.push(row);
      }
    } else if (performance.now() > deadline) return { columns, rows, total, totalExact: false, cut };
  }
}

/** The note under a capped table: how many rows there are, and how to see the others. */
export function capNote(rows: CappedRows, narrowing: string): string | null {
  if (rows.cut === null) return null;
  const totalText = rows.totalExact ? rows.total.toLocaleString('en-US') : `more than ${rows.total.toLocaleString('en-US')}`;
  const why = rows.cut === 'rows' ? '' : ' (the character cap was reached)';
  return `[Showing ${rows.rows.length.toLocaleString('en-US')} of ${totalText} rows${why}. ${narrowing}]`;
}
