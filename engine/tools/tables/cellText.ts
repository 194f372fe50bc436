import type { DuckDBType, DuckDBTypeId, DuckDBValue } from '@duckdb/node-api';
import { duckDb } from './duckDb.js';

/** The kinds of value the table tools name in headers: the words a model and a person both read. */
export type ColumnKind = 'integer' | 'decimal' | 'date' | 'timestamp' | 'time' | 'text' | 'boolean' | 'other';

/** DuckDB's type ids by the kind they are shown as; made at the first column read (DuckDB loads with the first session). */
let kindsById: ReadonlyMap<DuckDBTypeId, ColumnKind> | null = null;

const kindNames: Readonly<Record<Exclude<ColumnKind, 'other'>, readonly (keyof typeof DuckDBTypeId)[]>> = {
  integer: ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT'],
  decimal: ['FLOAT', 'DOUBLE', 'DECIMAL'],
  date: ['DATE'],
  timestamp: ['TIMESTAMP', 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMP_TZ'],
  time: ['TIME'],
  text: ['VARCHAR'],
  boolean: ['BOOLEAN'],
};

export function kindOf(type: DuckDBType): ColumnKind {
  kindsById ??= new Map(
    Object.entries(kindNames).flatMap(([kind, names]) => names.map((name) => [duckDb().DuckDBTypeId[name], kind as ColumnKind] as const)),
  );
  return kindsById.get(type.typeId) ?? 'other';
}

/** The header word for a column: its kind, or DuckDB's own type name where no kind fits (lists, structs…). */
export function typeLabel(type: DuckDBType): string {
  const kind = kindOf(type);
  return kind === 'other' ? type.toString().toLowerCase() : kind;
}

const maxCellChars = 200;

/**
 * A value as the model reads it: numbers as written (no exponent, no float noise like 0.30000000000000004,
 * no thousands separators), dates as ISO, NULL for a missing value, "" for empty text; long text cut.
 */
export function cellText(value: DuckDBValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? (value === '' ? '""' : value) : String(value);
  const flat = text.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/\|/g, '\\|');
  return flat.length > maxCellChars ? `${flat.slice(0, maxCellChars)}… (${flat.length} chars)` : flat;
}

/** A double with at most 15 significant digits and never in exponent form below 1e21. */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? value.toFixed(0) : String(value);
  const rounded = withoutFloatNoise(value);
  const text = String(rounded);
  if (!text.includes('e')) return text;
  return rounded.toFixed(Math.min(20, Math.max(0, 15 - Math.floor(Math.log10(Math.abs(rounded))) - 1))).replace(/\.?0+$/, '');
}

/**
 * A sum of doubles drifts from the decimal it stands for (-86.29 adds up to -86.2899999999987): a run of
 * 9s or 0s at the end of the 15 significant digits is that drift, and is rounded away at 12 digits.
 * Other values keep their 15 digits.
 */
export function withoutFloatNoise(value: number): number {
  const precise = Number(value.toPrecision(15));
  const digits = Math.abs(precise).toExponential(14).split('e')[0]!.replace('.', '');
  return /(9{5,}|0{5,})\d{0,3}$/.test(digits) ? Number(value.toPrecision(12)) : precise;
}
