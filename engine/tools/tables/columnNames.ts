import { ToolError } from '../tool.js';
import type { ProfiledColumn } from './columnProfile.js';
import { fileReference, runCheckedQuery } from './tableRun.js';
import type { TableSources } from './tableSources.js';

/** The columns of a table file and their type words, from a query that reads no row. */
export async function columnsOf(tables: TableSources, path: string, sheet?: string): Promise<ProfiledColumn[]> {
  const result = await runCheckedQuery(tables, `SELECT * FROM ${fileReference(path, sheet)} LIMIT 0`, { maxRows: 0, maxChars: 0 });
  return result.columns.map(({ name, type }) => ({ name, type: type ?? 'other' }));
}

/**
 * The columns the model named, matched to the table's (exactly, else ignoring case); an unknown name is
 * a ToolError that lists the real ones.
 */
export function pickColumns(all: readonly ProfiledColumn[], names: readonly string[], argument: string): ProfiledColumn[] {
  return names.map((name) => {
    const found = all.find((column) => column.name === name) ?? all.find((column) => column.name.toLowerCase() === name.toLowerCase());
    if (!found) throw new ToolError(`${argument}: there is no column "${name}". The columns are: ${all.map((column) => column.name).join(', ')}.`);
    return found;
  });
}
