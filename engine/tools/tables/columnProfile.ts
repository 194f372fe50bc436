import { runCheckedQuery } from './tableRun.js';
import { sqlIdentifier } from './sqlText.js';
import type { TableSources } from './tableSources.js';
import { count, type TextTable } from './tableText.js';

export interface ProfiledColumn {
  name: string;
  type: string;
}

export interface ProfileOptions {
  /** FROM-able reference to the table, as fileReference gives it. */
  from: string;
  columns: readonly ProfiledColumn[];
  /** Exact distinct counts (costs memory on huge tables); approximate ones otherwise, marked "≈". */
  exactDistinct: boolean;
  /** Mean, median and sum of the number columns too. */
  numbers: boolean;
}

export interface Profile {
  rows: number;
  /** One row per column: its name, type, nulls, distinct values, min and max (and mean, median, sum). */
  table: TextTable;
}

const numberTypes = new Set(['integer', 'decimal']);
const comparableTypes = new Set(['integer', 'decimal', 'date', 'timestamp', 'time', 'text', 'boolean']);
const maxValueChars = 40;

/** Counts, nulls, distinct values, min and max of every column (and more for numbers) in one scan. */
export async function profileColumns(tables: TableSources, options: ProfileOptions): Promise<Profile> {
  const { from, columns, exactDistinct, numbers } = options;
  const aggregates = ['count(*)'];
  for (const { name, type } of columns) {
    const column = sqlIdentifier(name);
    const comparable = comparableTypes.has(type);
    aggregates.push(`count(${column})`, exactDistinct ? `count(DISTINCT ${column})` : `approx_count_distinct(${column})`);
    aggregates.push(comparable ? `min(${column})` : 'NULL', comparable ? `max(${column})` : 'NULL');
    if (numbers) aggregates.push(...(numberTypes.has(type) ? [`avg(${column})`, `median(${column})`, `sum(${column})`] : ['NULL', 'NULL', 'NULL']));
  }
  const sql = `SELECT ${aggregates.map((aggregate, index) => `${aggregate} AS a${index}`).join(', ')} FROM ${from}`;
  const result = await runCheckedQuery(tables, sql, { maxRows: 1, maxChars: Number.MAX_SAFE_INTEGER });
  const cells = result.rows[0] ?? [];
  const rows = Number(cells[0] ?? 0);
  const per = numbers ? 7 : 4;
  const lines = columns.map(({ name, type }, index) => {
    const [present, distinct, min, max, mean, median, sum] = cells.slice(1 + index * per, 1 + (index + 1) * per).map((cell) => short(cell ?? 'NULL'));
    const nulls = rows - Number(present);
    const stats = [name.replace(/\|/g, '\\|'), type, count(nulls), `${exactDistinct ? '' : '≈'}${distinct}`, min ?? '', max ?? ''];
    return numbers ? [...stats, mean ?? '', median ?? '', sum ?? ''] : stats;
  });
  const headings = ['column', 'type', 'nulls', 'distinct', 'min', 'max', ...(numbers ? ['mean', 'median', 'sum'] : [])];
  return { rows, table: { columns: headings.map((name) => ({ name })), rows: lines.map((line) => line.map((cell) => (cell === 'NULL' ? '' : cell))) } };
}

function short(text: string): string {
  return text.length > maxValueChars ? `${text.slice(0, maxValueChars)}…` : text;
}
