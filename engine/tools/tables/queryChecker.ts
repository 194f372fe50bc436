import path from 'node:path';
import type { DuckDBPreparedStatement } from '@duckdb/node-api';
import { ToolError } from '../tool.js';
import { sqlIdentifier, sqlString, sqlStringList } from './sqlText.js';
import { constantStrings, cteNames, expressionNode, isNode, namedArguments, parseSql, printSql, readOnlyRule, replaceNode, tableRefNode, type SqlNode } from './sqlTree.js';
import type { TableSources } from './tableSources.js';
import type { SheetLoadOptions } from './xlsxTable.js';
import { duckDb } from './duckDb.js';

/** Table functions whose first argument is a file (or a list of files, or a pattern). */
const fileReaders = new Set([
  'read_csv',
  'read_csv_auto',
  'sniff_csv',
  'read_parquet',
  'parquet_scan',
  'parquet_metadata',
  'parquet_schema',
  'parquet_file_metadata',
  'parquet_kv_metadata',
  'read_json',
  'read_json_auto',
  'read_ndjson',
  'read_ndjson_auto',
  'read_json_objects',
  'read_ndjson_objects',
  'read_json_objects_auto',
  'read_text',
  'read_blob',
]);

/** Table functions that read no file at all. */
const plainTableFunctions = new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree']);

const offeredFunctions = 'read_csv, read_parquet, read_json, read_xlsx(path, sheet=…, header=…, range=…), a quoted path (FROM \'data/bank.csv\'), range, generate_series and unnest';

/**
 * Makes the model's SQL safe to run, before DuckDB binds anything: it must parse as one query (so
 * nothing can be written), every file it names — a quoted path in FROM, the first argument of a reader
 * such as read_csv, a glob pattern — is resolved and checked through the Workspace and replaced by its
 * real absolute path, and table functions that are not readers of the folder's files are refused. A
 * quoted path to a CSV is read with its detected dialect, an Excel sheet from an in-memory table.
 */
export class QueryChecker {
  constructor(private readonly sources: TableSources) {}

  /** The prepared statement for the model's SQL, rewritten and checked; throws a ToolError the model can act on. */
  async prepare(sql: string): Promise<DuckDBPreparedStatement> {
    const { session } = this.sources;
    const tree = await parseSql(session, sql);
    await this.visit(tree.statements, cteNames(tree.statements));
    const checked = await printSql(session, tree);
    const prepared = await session.guarded(() => session.connection.prepare(checked));
    if (prepared.statementType !== duckDb().StatementType.SELECT) throw new ToolError(`Refused: ${readOnlyRule}`);
    return prepared;
  }

  private async visit(value: unknown, ctes: ReadonlySet<string>): Promise<void> {
    if (Array.isArray(value)) {
      for (const item of value) await this.visit(item, ctes);
      return;
    }
    if (!isNode(value)) return;
    // Table references carry no 'class'; expressions do.
    if (!('class' in value) && value['type'] === 'BASE_TABLE' && (await this.baseTable(value, ctes))) return;
    if (!('class' in value) && value['type'] === 'TABLE_FUNCTION' && (await this.tableFunction(value, ctes))) return;
    for (const child of Object.values(value)) await this.visit(child, ctes);
  }

  /** A quoted path in FROM becomes its source; returns whether the node was replaced. */
  private async baseTable(node: SqlNode, ctes: ReadonlySet<string>): Promise<boolean> {
    const name = String(node['table_name'] ?? '');
    if (node['schema_name'] || node['catalog_name'] || ctes.has(name.toLowerCase()) || !/[./\\]/.test(name)) return false;
    const source = await this.sources.forPath(name);
    await this.replaceWithSource(node, source.sql, name);
    return true;
  }

  /** Readers get checked paths, read_xlsx its loaded sheet; anything else is refused. Returns whether the node was replaced. */
  private async tableFunction(node: SqlNode, ctes: ReadonlySet<string>): Promise<boolean> {
    const call = isNode(node['function']) ? node['function'] : {};
    const name = String(call['function_name'] ?? '').toLowerCase();
    const args = Array.isArray(call['children']) ? (call['children'] as unknown[]) : [];
    if (plainTableFunctions.has(name)) return false;
    if (name !== 'read_xlsx' && !fileReaders.has(name)) throw new ToolError(`Refused: ${name}() is not available in table_query. Tables are read with ${offeredFunctions}.`);
    const paths = constantStrings(args[0]);
    if (paths === null || paths.length === 0) throw new ToolError(`The first argument of ${name}() must be a quoted path, or a list of quoted paths, relative to the project folder.`);
    for (const arg of args.slice(1)) await this.visit(arg, ctes);
    if (name === 'read_xlsx') {
      if (paths.length !== 1) throw new ToolError('read_xlsx() reads one workbook at a time.');
      const source = await this.sources.forPath(paths[0]!, sheetOptions(namedArguments(args.slice(1))));
      if (source.detail.format !== 'xlsx') throw new ToolError(`read_xlsx() reads .xlsx and .xlsm workbooks; ${paths[0]} is not one.`);
      await this.replaceWithSource(node, source.sql, paths[0]!);
      return true;
    }
    const files = (await Promise.all(paths.map((each) => this.sources.anyFilesFor(each)))).flat();
    const reals = files.map((file) => file.real);
    args[0] = await expressionNode(this.sources.session, reals.length === 1 ? sqlString(reals[0]!) : sqlStringList(reals));
    return true;
  }

  private async replaceWithSource(node: SqlNode, sourceSql: string, requested: string): Promise<void> {
    const alias = String(node['alias'] || defaultAlias(requested));
    const columnAliases = Array.isArray(node['column_name_alias']) ? (node['column_name_alias'] as string[]) : [];
    const aliasSql = `${sqlIdentifier(alias)}${columnAliases.length ? `(${columnAliases.map(sqlIdentifier).join(', ')})` : ''}`;
    const replacement = await tableRefNode(this.sources.session, `${sourceSql} AS ${aliasSql}`);
    replaceNode(node, { ...replacement, sample: node['sample'] ?? null });
  }
}

/** What DuckDB would call a file in FROM: its name without folders and extensions ("bank" for data/bank.csv.gz). */
function defaultAlias(requested: string): string {
  return path.posix.basename(requested.replace(/\\/g, '/')).replace(/\..*$/, '') || 'file';
}

function sheetOptions(named: Map<string, unknown>): SheetLoadOptions {
  const options: SheetLoadOptions = {};
  for (const [name, value] of named) {
    if (name === 'sheet' && typeof value === 'string') options.sheet = value;
    else if (name === 'header' && typeof value === 'boolean') options.header = value;
    else if (name === 'range' && typeof value === 'string') options.range = value;
    else if (name === 'all_varchar' && typeof value === 'boolean') options.allVarchar = value;
    else throw new ToolError(`read_xlsx() takes sheet='name', header=true|false, range='A1:F100' and all_varchar=true|false; "${name}" is not one of them.`);
  }
  return options;
}
