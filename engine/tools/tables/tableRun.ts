import { ToolError, type ToolContext } from '../tool.js';
import { PathRefusedError } from '../../workspace/pathRules.js';
import { readCapped, type CapOptions, type CappedRows } from './cappedRows.js';
import { withDuckSession } from './duckSession.js';
import { QueryChecker } from './queryChecker.js';
import { sqlIdentifier, sqlString } from './sqlText.js';
import { TableSources } from './tableSources.js';
import type { SheetLoadOptions } from './xlsxTable.js';

/**
 * Runs `use` with the tables of the folder in a fresh locked-down DuckDB session, closed afterwards.
 * DuckDB's own errors become ToolErrors the model reads, with the folder's absolute path taken out.
 */
export async function withTables<T>(context: Pick<ToolContext, 'workspace' | 'signal'>, use: (tables: TableSources) => Promise<T>): Promise<T> {
  const { workspace, signal } = context;
  try {
    return await withDuckSession({ root: workspace.root, signal }, (session) => use(new TableSources(session, workspace, signal)));
  } catch (error) {
    if (error instanceof ToolError || error instanceof PathRefusedError || signal.aborted || !(error instanceof Error)) throw error;
    throw new ToolError(error.message.replaceAll(`${workspace.root}/`, '').replace(/\n{2,}/g, '\n').trim());
  }
}

/** Runs SQL through the QueryChecker and reads the first rows of its result. */
export async function runCheckedQuery(tables: TableSources, sql: string, caps: CapOptions): Promise<CappedRows> {
  const prepared = await new QueryChecker(tables).prepare(sql);
  const result = await tables.session.guarded(() => prepared.stream());
  return readCapped(tables.session, result, caps);
}

/**
 * How a query names a table file as the model gave it: a quoted path, or read_xlsx with the sheet.
 * The query then goes through the QueryChecker like any the model writes.
 */
export function fileReference(path: string, sheet?: string): string {
  const isWorkbook = /\.xlsx$|\.xlsm$/i.test(path);
  const reference = isWorkbook ? `read_xlsx(${sqlString(path)}${sheet === undefined ? '' : `, sheet = ${sqlString(sheet)}`})` : sqlString(path);
  return `${reference} AS ${sqlIdentifier('t')}`;
}

/** The sheet options a tool's `sheet` argument means. */
export function sheetArgument(path: string, sheet: string | undefined): SheetLoadOptions {
  if (sheet !== undefined && !/\.xlsx$|\.xlsm$/i.test(path)) throw new ToolError(`sheet applies to Excel workbooks only; ${path} is not one.`);
  return sheet === undefined ? {} : { sheet };
}
