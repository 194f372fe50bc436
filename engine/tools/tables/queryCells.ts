import type { DuckDBResult, DuckDBValue } from '@duckdb/node-api';
import { kindOf, type ColumnKind } from './cellText.js';
import type { DuckSession } from './duckSession.js';
import type { XlsxCell, XlsxType } from './workbookCells.js';
import { duckDb } from './duckDb.js';

const typeOfKind: Readonly<Record<ColumnKind, XlsxType>> = {
  integer: 'integer',
  decimal: 'decimal',
  date: 'date',
  timestamp: 'datetime',
  time: 'text',
  text: 'text',
  boolean: 'boolean',
  other: 'text',
};

/** The workbook column type for each column of a query result. */
export function resultColumnTypes(result: DuckDBResult): XlsxType[] {
  return result.columnTypes().map((type) => typeOfKind[kindOf(type)]);
}

/** The rows of a streaming result as workbook cells, chunk by chunk. */
export async function* resultCells(session: DuckSession, result: DuckDBResult): AsyncGenerator<XlsxCell[]> {
  for (;;) {
    const chunk = await session.guarded(() => result.fetchChunk());
    if (!chunk || chunk.rowCount === 0) return;
    for (const row of chunk.getRows()) yield row.map(workbookCell);
  }
}

/**
 * A DuckDB value as a workbook cell: numbers as numbers (decimals through their double value, integers
 * beyond 2^53 as text since Excel would round them), dates and timestamps as dates.
 */
export function workbookCell(value: DuckDBValue): XlsxCell {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  const { DuckDBDecimalValue, DuckDBDateValue, DuckDBTimestampValue } = duckDb();
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  if (value instanceof DuckDBDateValue) return value.isFinite ? new Date(value.days * 86_400_000) : value.toString();
  if (value instanceof DuckDBTimestampValue) return value.isFinite ? new Date(Number(value.micros / 1000n)) : value.toString();
  return String(value);
}
