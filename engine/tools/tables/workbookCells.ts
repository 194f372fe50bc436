import { ToolError } from '../tool.js';

export const xlsxTypes = ['integer', 'decimal', 'date', 'datetime', 'text', 'boolean'] as const;
export type XlsxType = (typeof xlsxTypes)[number];

/** A value as it goes into a workbook cell: numbers stay numbers, dates are dates (UTC wall-clock time). */
export type XlsxCell = number | string | boolean | Date | null;

/** Excel number formats used when a column names none: money-like decimals, ISO dates. */
export const defaultNumberFormats: Readonly<Record<XlsxType, string | null>> = {
  integer: null,
  decimal: '#,##0.00##',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm:ss',
  text: null,
  boolean: null,
};

const integerText = /^[-+]?\d+$/;
const decimalText = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const dateText = /^(\d{4})-(\d{2})-(\d{2})(T00:00(:00(\.0+)?)?Z?)?$/;
const datetimeText = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?Z?$/;

/**
 * A value given for a cell of a column of `type`, as the cell will hold it; `where` names the cell in
 * the error when it does not fit ("sheet "Food", row 3, column "amount"").
 */
export function typedCell(value: unknown, type: XlsxType, where: string): XlsxCell {
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case 'integer':
    case 'decimal': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && (type === 'integer' ? integerText : decimalText).test(value.trim()) ? Number(value) : NaN;
      if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) {
        throw new ToolError(`${where}: ${JSON.stringify(value)} is not ${type === 'integer' ? 'a whole number' : 'a number'} (write numbers as JSON numbers, or text with a dot as the decimal separator, e.g. 1234.5).`);
      }
      return number;
    }
    case 'date':
    case 'datetime': {
      const date = value instanceof Date ? value : typeof value === 'string' ? dateOf(value.trim(), type) : null;
      if (!date) throw new ToolError(`${where}: ${JSON.stringify(value)} is not a ${type} (write ${type === 'date' ? 'dates as YYYY-MM-DD' : 'date-times as YYYY-MM-DD HH:MM:SS'}).`);
      return date;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new ToolError(`${where}: ${JSON.stringify(value)} is not true or false.`);
    case 'text':
      return value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** The type a column of literal values has when none is named: JSON numbers → numbers, ISO date text → dates. */
export function inferredType(values: readonly unknown[]): XlsxType {
  const present = values.filter((value) => value !== null && value !== undefined && value !== '');
  if (present.length === 0) return 'text';
  if (present.every((value) => typeof value === 'boolean')) return 'boolean';
  if (present.every((value) => typeof value === 'number')) return present.every((value) => Number.isInteger(value)) ? 'integer' : 'decimal';
  if (present.every((value) => typeof value === 'string' && dateOf(value, 'date'))) return 'date';
  if (present.every((value) => typeof value === 'string' && dateOf(value, 'datetime'))) return 'datetime';
  return 'text';
}

/** A UTC date from ISO text, checked to be a real day (no 2024-02-30); null otherwise. */
function dateOf(text: string, type: 'date' | 'datetime'): Date | null {
  const match = (type === 'date' ? dateText : datetimeText).exec(text);
  if (!match) return null;
  const [year, month, day, hour = '0', minute = '0', second = '0'] = type === 'date' ? match.slice(1, 4) : match.slice(1, 7);
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  const real = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return real && Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60 ? date : null;
}
