import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableDescribe } from '../engine/tools/tableDescribe.js';
import { tableQuery } from '../engine/tools/tableQuery.js';
import { benchToolContext, format, interleavedMedians } from './tools.js';

const targetBytes = 1024 ** 3;
/** About 49 bytes a row. */
const rows = Math.round(targetBytes / 49);
const columns = ['booked', 'description', 'amount', 'category', 'account'];
const groupedSql = (from: string) => `SELECT category, count(*) AS n, sum(amount) AS total FROM ${from} GROUP BY category ORDER BY category`;
/** What table_describe runs over the whole file (more than 64 MB: approximate distinct counts). */
const profileSql = (from: string) =>
  `SELECT count(*), ${columns.map((name) => `count(${name}), approx_count_distinct(${name}), min(${name}), max(${name})`).join(', ')} FROM ${from}`;

/**
 * `npm run bench -- tables`: table_describe and a grouped table_query on a generated 1 GB CSV, each
 * against the same query run directly through DuckDB (defaults, no checks), measured side by side; and
 * the peak memory of each, each in a process of its own.
 */
export async function benchTables(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-tables-'));
  try {
    const file = path.join(folder, 'ledger.csv');
    const started = performance.now();
    await generate(file);
    console.log(`tables: ${((await stat(file)).size / 1024 ** 3).toFixed(2)} GB CSV, ${rows.toLocaleString('en-US')} rows, generated in ${format(performance.now() - started)}`);
    const context = await benchToolContext(folder);
    const direct = await (await DuckDBInstance.create(':memory:')).connect();
    const raw = `read_csv('${file}')`;
    const [describeTool, describeDirect, queryTool, queryDirect] = await interleavedMedians(5, [
      () => tableDescribe.run({ path: 'ledger.csv' }, context),
      () => direct.runAndReadAll(profileSql(raw)),
      () => tableQuery.run({ sql: groupedSql(`'ledger.csv'`) }, context),
      () => direct.runAndReadAll(groupedSql(raw)),
    ]);
    direct.closeSync();
    console.log(`  table_describe        ${format(describeTool!)}   DuckDB direct (profile query) ${format(describeDirect!)}   ratio ${(describeTool! / describeDirect!).toFixed(2)}× (goal ≤ 1.2×)`);
    console.log(`  grouped table_query   ${format(queryTool!)}   DuckDB direct ${format(queryDirect!)}   ratio ${(queryTool! / queryDirect!).toFixed(2)}× (goal ≤ 1.2×)`);
    const [toolPeak, directPeak] = [peakOf('tools', folder), peakOf('direct', folder)];
    console.log(`  peak memory (max RSS, own process): tools ${toolPeak} MB, DuckDB direct ${directPeak} MB; the file is ${(targetBytes / 1024 ** 2).toFixed(0)} MB`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Writes the CSV with DuckDB itself, which takes seconds rather than minutes. */
async function generate(file: string): Promise<void> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(`COPY (
    SELECT DATE '2020-01-01' + CAST(i % 1461 AS INTEGER) AS booked,
           'payment ' || (i % 100003) AS description,
           round(((i * 7919) % 200000) / 100.0 - 1000, 2) AS amount,
           ['Groceries', 'Rent', 'Transport', 'Dining', 'Utilities', 'Income', 'Travel', 'Health'][1 + i % 8] AS category,
           'DE' || lpad(CAST(i % 997 AS VARCHAR), 6, '0') AS account
    FROM range(${rows}) r(i)) TO '${file}' (HEADER, DELIMITER ',')`);
  connection.closeSync();
}

/** The peak memory of describing and querying the file once, in a fresh process. */
function peakOf(mode: 'tools' | 'direct', folder: string): string {
  const script = `const m = await import('./bench/tables.ts'); await m.tablesOnce(${JSON.stringify(mode)}, ${JSON.stringify(folder)}); console.log((process.resourceUsage().maxRSS / 1024).toFixed(0));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`bench tables: the ${mode} process failed: ${run.stderr}`);
  return run.stdout.trim().split('\n').at(-1) ?? '?';
}

/** One describe and one grouped query, through the tools or directly; the child process of peakOf. */
export async function tablesOnce(mode: 'tools' | 'direct', folder: string): Promise<void> {
  if (mode === 'tools') {
    const context = await benchToolContext(folder);
    await tableDescribe.run({ path: 'ledger.csv' }, context);
    await tableQuery.run({ sql: groupedSql(`'ledger.csv'`) }, context);
    return;
  }
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const raw = `read_csv('${path.join(folder, 'ledger.csv')}')`;
  await connection.runAndReadAll(profileSql(raw));
  await connection.runAndReadAll(groupedSql(raw));
  connection.closeSync();
}
