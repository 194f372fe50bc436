import type { DuckDBAppender } from '@duckdb/node-api';
import type { DuckSession } from './duckSession.js';
import { sqlIdentifier } from './sqlText.js';
import type { SheetCell } from './xlsxRows.js';
import { duckDb } from './duckDb.js';

interface ColumnKinds {
  numbers: number;
  fractions: boolean;
  dates: number;
  times: boolean;
  booleans: number;
  texts: number;
}

/**
 * Rows appended to a staging table with a number, a timestamp, a boolean and a text column per sheet
 * column; at the end each column becomes the one type it held, or text when it held several.
 */
export class StagedLoad {
  private rows = 0;
  private readonly kinds: ColumnKinds[];
  private static serial = 0;

  private constructor(
    private readonly session: DuckSession,
    private readonly stage: string,
    private readonly appender: DuckDBAppender,
    private readonly width: number,
  ) {
    this.kinds = Array.from({ length: width }, () => ({ numbers: 0, fractions: false, dates: 0, times: false, booleans: 0, texts: 0 }));
  }

  static async begin(session: DuckSession, width: number): Promise<StagedLoad> {
    const stage = `stage_${(StagedLoad.serial += 1)}`;
    const columns = Array.from({ length: Math.max(width, 1) }, (_, index) => `n${index} DOUBLE, t${index} TIMESTAMP, b${index} BOOLEAN, s${index} VARCHAR`);
    await session.run(`CREATE TABLE ${stage} (${columns.join(', ')})`);
    return new StagedLoad(session, stage, await session.connection.createAppender(stage), Math.max(width, 1));
  }

  append(cells: readonly SheetCell[]): void {
    for (let index = 0; index < this.width; index += 1) this.appendCell(cells[index] ?? null, this.kinds[index]!);
    this.appender.endRow();
    this.rows += 1;
  }

  private appendCell(cell: SheetCell, kinds: ColumnKinds): void {
    const slot = cell === null || cell === '' ? -1 : typeof cell === 'number' ? 0 : cell instanceof Date ? 1 : typeof cell === 'boolean' ? 2 : 3;
    for (let position = 0; position < 4; position += 1) {
      if (position !== slot) this.appender.appendNull();
      else if (typeof cell === 'number') {
        this.appender.appendDouble(cell);
        kinds.numbers += 1;
        kinds.fractions ||= !Number.isSafeInteger(cell);
      } else if (cell instanceof Date) {
        this.appender.appendTimestamp(new (duckDb().DuckDBTimestampValue)(BigInt(cell.getTime()) * 1000n));
        kinds.dates += 1;
        kinds.times ||= cell.getTime() % 86_400_000 !== 0;
      } else if (typeof cell === 'boolean') {
        this.appender.appendBoolean(cell);
        kinds.booleans += 1;
      } else {
        this.appender.appendVarchar(String(cell));
        kinds.texts += 1;
      }
    }
  }

  /** Makes the typed table from the staging one; returns its row count. */
  async finish(table: string, names: readonly string[], allVarchar: boolean): Promise<number> {
    this.appender.closeSync();
    const columns = names.map((name, index) => `${columnExpression(index, this.kinds[index]!, allVarchar)} AS ${sqlIdentifier(name)}`);
    await this.session.run(`CREATE TABLE ${sqlIdentifier(table)} AS SELECT ${columns.join(', ') || 'NULL AS "A"'} FROM ${this.stage}`);
    await this.session.run(`DROP TABLE ${this.stage}`);
    return this.rows;
  }
}

function columnExpression(index: number, kinds: ColumnKinds, allVarchar: boolean): string {
  const kindsSeen = [kinds.numbers, kinds.dates, kinds.booleans, kinds.texts].filter((count) => count > 0).length;
  if (!allVarchar && kindsSeen === 1) {
    if (kinds.numbers > 0) return kinds.fractions ? `n${index}` : `CAST(n${index} AS BIGINT)`;
    if (kinds.dates > 0) return kinds.times ? `t${index}` : `CAST(t${index} AS DATE)`;
    if (kinds.booleans > 0) return `b${index}`;
  }
  const numberText = `CASE WHEN n${index} = trunc(n${index}) AND abs(n${index}) < 1e15 THEN CAST(CAST(n${index} AS BIGINT) AS VARCHAR) ELSE CAST(n${index} AS VARCHAR) END`;
  const dateText = kinds.times ? `strftime(t${index}, '%Y-%m-%d %H:%M:%S')` : `strftime(t${index}, '%Y-%m-%d')`;
  return `coalesce(s${index}, ${numberText}, ${dateText}, CAST(b${index} AS VARCHAR))`;
}
