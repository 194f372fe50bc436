import { ToolError } from '../tool.js';
import type { Workspace } from '../../workspace/workspace.js';
import { csvSourceSql, detectCsvDialect, type CsvDialect } from './csvDialect.js';
import type { DuckSession } from './duckSession.js';
import { sqlIdentifier, sqlString, sqlStringList } from './sqlText.js';
import { checkedFile, checkedTableFile, expandGlob, isGlob, type CheckedFile, type TableFile } from './tableFiles.js';
import { loadSheet, type LoadedSheet, type SheetLoadOptions } from './xlsxTable.js';

export type SourceDetail = { format: 'csv'; dialect: CsvDialect } | { format: 'xlsx'; sheet: LoadedSheet } | { format: 'parquet' } | { format: 'jsonl' };

/** Files made readable by SQL: `sql` goes where a table name goes (FROM …). */
export interface TableSource {
  files: readonly TableFile[];
  sql: string;
  detail: SourceDetail;
}

/**
 * Turns checked table files into SQL sources inside one session: CSV read with its detected dialect,
 * Parquet and JSON lines read directly, an Excel sheet loaded into an in-memory table. Each file (and
 * sheet) is prepared once per session however often a query names it.
 */
export class TableSources {
  private readonly prepared = new Map<string, Promise<TableSource>>();
  private sheets = 0;

  constructor(
    readonly session: DuckSession,
    readonly workspace: Workspace,
    readonly signal: AbortSignal,
  ) {}

  /** The table files a path names: one file, or every file a glob pattern matches, all checked. */
  async filesFor(requested: string): Promise<TableFile[]> {
    return isGlob(requested) ? expandGlob(this.workspace, requested, this.signal, checkedTableFile) : [await checkedTableFile(this.workspace, requested)];
  }

  /** Like filesFor, for readers the model calls by name (read_csv…), which take files of any extension. */
  async anyFilesFor(requested: string): Promise<CheckedFile[]> {
    return isGlob(requested) ? expandGlob(this.workspace, requested, this.signal, checkedFile) : [await checkedFile(this.workspace, requested)];
  }

  /** The source for a path (or pattern) as the model wrote it; `sheet` options apply to workbooks only. */
  async forPath(requested: string, sheet: SheetLoadOptions = {}): Promise<TableSource> {
    return this.forFiles(await this.filesFor(requested), sheet, requested);
  }

  forFiles(files: readonly TableFile[], sheet: SheetLoadOptions = {}, requested = files[0]?.requested ?? ''): Promise<TableSource> {
    const key = JSON.stringify([files.map((file) => file.real), sheet]);
    let source = this.prepared.get(key);
    if (!source) {
      source = this.prepare(files, sheet, requested);
      this.prepared.set(key, source);
    }
    return source;
  }

  private async prepare(files: readonly TableFile[], sheet: SheetLoadOptions, requested: string): Promise<TableSource> {
    const formats = new Set(files.map((file) => file.format));
    if (formats.size > 1) throw new ToolError(`"${requested}" matches files of different formats (${[...formats].join(', ')}); use a pattern that matches one kind.`);
    const paths = files.map((file) => file.real);
    const first = files[0]!;
    switch (first.format) {
      case 'csv': {
        const dialect = await detectCsvDialect(this.session, this.workspace, first);
        return { files, sql: csvSourceSql(paths, dialect), detail: { format: 'csv', dialect } };
      }
      case 'parquet':
        return { files, sql: `read_parquet(${listOrOne(paths)}${paths.length > 1 ? ', union_by_name = true' : ''})`, detail: { format: 'parquet' } };
      case 'jsonl':
        return { files, sql: `read_json(${listOrOne(paths)}, format = 'newline_delimited')`, detail: { format: 'jsonl' } };
      case 'xlsx': {
        if (files.length > 1) throw new ToolError(`"${requested}" matches ${files.length} workbooks; name one workbook (and a sheet) at a time.`);
        this.sheets += 1;
        const loaded = await loadSheet(this.session, this.workspace, first, sheet, `sheet_${this.sheets}`, this.signal);
        return { files, sql: sqlIdentifier(loaded.table), detail: { format: 'xlsx', sheet: loaded } };
      }
    }
  }
}

function listOrOne(paths: readonly string[]): string {
  return paths.length === 1 ? sqlString(paths[0]!) : sqlStringList(paths);
}
