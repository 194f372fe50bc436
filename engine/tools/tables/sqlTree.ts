import { ToolError } from '../tool.js';
import type { DuckSession } from './duckSession.js';

/** A node of DuckDB's JSON syntax tree (json_serialize_sql): plain JSON objects. */
export type SqlNode = Record<string, unknown>;

export interface ParsedStatements {
  statements: { node: SqlNode }[];
}

/** DuckDB writes "no position" as 2^64-1, which JSON numbers cannot carry back unchanged. */
const noPosition = '18446744073709551615';
const noPositionMarker = '"query_location":"no-position"';

export const readOnlyRule =
  'table_query runs one read-only query (SELECT, WITH, FROM, SUMMARIZE or DESCRIBE); it never writes, so COPY, EXPORT, ' +
  'CREATE, INSERT, UPDATE, DELETE, ATTACH, INSTALL, LOAD, SET and PRAGMA are refused, and PIVOT statements must be written ' +
  'as GROUP BY with FILTER or CASE. To save results in a workbook, use write_xlsx with a query.';

/** Parses SQL with DuckDB's own parser (nothing is bound or read); a statement that is not a query is refused. */
export async function parseSql(session: DuckSession, sql: string): Promise<ParsedStatements> {
  const [row] = await session.rows('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  const text = String(row?.[0] ?? '').replaceAll(`"query_location":${noPosition}`, noPositionMarker);
  const parsed = JSON.parse(text) as { error?: boolean; error_type?: string; error_message?: string } & ParsedStatements;
  if (parsed.error) {
    const message = parsed.error_message ?? 'the statement could not be parsed';
    if (/Only SELECT statements/i.test(message)) throw new ToolError(`Refused: ${readOnlyRule}`);
    throw new ToolError(`The SQL does not parse: ${message}`);
  }
  if (parsed.statements.length !== 1) throw new ToolError(`Send one statement at a time (this SQL has ${parsed.statements.length}). ${readOnlyRule}`);
  return parsed;
}

/** SQL text from a syntax tree, printed by DuckDB. */
export async function printSql(session: DuckSession, tree: ParsedStatements): Promise<string> {
  const json = JSON.stringify({ error: false, statements: tree.statements }).replaceAll(noPositionMarker, `"query_location":${noPosition}`);
  const [row] = await session.rows('SELECT json_deserialize_sql($1::JSON)', [json]);
  return String(row?.[0] ?? '');
}

/** The syntax tree of one expression, e.g. a string literal or a list of them. */
export async function expressionNode(session: DuckSession, expression: string): Promise<SqlNode> {
  const { statements } = await parseSql(session, `SELECT ${expression}`);
  return (statements[0]!.node['select_list'] as SqlNode[])[0]!;
}

/** The syntax tree of one table reference, e.g. `read_csv('/x.csv') AS "x"`. */
export async function tableRefNode(session: DuckSession, tableRef: string): Promise<SqlNode> {
  const { statements } = await parseSql(session, `SELECT * FROM ${tableRef}`);
  return statements[0]!.node['from_table'] as SqlNode;
}

export function isNode(value: unknown): value is SqlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Replaces a node's content in place, so the parent's reference now points at the new node. */
export function replaceNode(node: SqlNode, replacement: SqlNode): void {
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, replacement);
}

/** The names of every common table expression (WITH x AS …) anywhere in the tree. */
export function cteNames(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => cteNames(item, found));
  else if (isNode(value)) {
    const map = isNode(value['cte_map']) ? value['cte_map']['map'] : undefined;
    if (Array.isArray(map)) for (const entry of map) if (isNode(entry) && typeof entry['key'] === 'string') found.add(entry['key'].toLowerCase());
    Object.values(value).forEach((child) => cteNames(child, found));
  }
  return found;
}

/** The string constants of a node that is a string literal or a list of them; null for anything else. */
export function constantStrings(node: unknown): string[] | null {
  if (!isNode(node)) return null;
  if (node['type'] === 'VALUE_CONSTANT') {
    const value = node['value'];
    return isNode(value) && typeof value['value'] === 'string' && !value['is_null'] ? [value['value']] : null;
  }
  if (node['class'] === 'FUNCTION' && node['function_name'] === 'list_value' && Array.isArray(node['children'])) {
    const parts = node['children'].map(constantStrings);
    return parts.every((part) => part !== null) ? parts.flat() : null;
  }
  return null;
}

/** The named arguments of a table function call (`sheet = 'March'`), as constants. */
export function namedArguments(children: readonly unknown[]): Map<string, unknown> {
  const named = new Map<string, unknown>();
  for (const child of children) {
    if (!isNode(child) || child['type'] !== 'COMPARE_EQUAL' || !isNode(child['left']) || !isNode(child['right'])) continue;
    const names = child['left']['column_names'];
    const value = child['right']['value'];
    if (Array.isArray(names) && typeof names[0] === 'string' && isNode(value)) named.set(names[0].toLowerCase(), value['is_null'] ? null : value['value']);
  }
  return named;
}
