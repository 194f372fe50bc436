import type * as DuckDb from '@duckdb/node-api';

let loaded: typeof DuckDb | null = null;

/**
 * DuckDB, loaded with its native binding when the first table session opens: most commands and runs never
 * query a table, and loading it takes longer than many of them take to run.
 */
export async function loadDuckDb(): Promise<typeof DuckDb> {
  return (loaded ??= await import('@duckdb/node-api'));
}

/** DuckDB once a session has loaded it: every DuckDB value, type or statement the table code reads came from one. */
export function duckDb(): typeof DuckDb {
  if (loaded === null) throw new Error('DuckDB was used before a table session loaded it.');
  return loaded;
}
