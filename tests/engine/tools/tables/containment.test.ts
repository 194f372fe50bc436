import { existsSync } from 'node:fs';
import { link, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckSession } from '../../../../engine/tools/tables/duckSession.js';
import type { ToolLogRecord } from '../../../../engine/store/toolLog.js';
import { executeToolCall } from '../../../../engine/tools/executeToolCall.js';
import { tableQuery } from '../../../../engine/tools/tableQuery.js';
import { tableDescribe } from '../../../../engine/tools/tableDescribe.js';
import { tableReadRows } from '../../../../engine/tools/tableReadRows.js';
import { runTool, toolContextFor } from '../../../support/toolContext.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

const statement = 'date,amount\n2024-03-01,-12.50\n';

describe('SQL never leaves the folder', () => {
  const tempFolder = useTempFolders('rpi-tables-contained-');

  /** A project with a table, and next to it (outside) a secret table and folder. */
  async function project() {
    const outside = await tempFolder();
    const root = path.join(outside, 'project');
    await writeTree(outside, { 'secret.csv': 'secret\nhunter2\n', 'private/other.csv': 'x\n1\n', 'project/bank.csv': statement });
    await writeTree(root, { '.workbench/tool-log.jsonl': '{"x":1}\n', '.git/config': '[core]\n', 'data/ok.csv': statement });
    const context = await toolContextFor(root);
    const query = (sql: string) => runTool(tableQuery, { sql }, context);
    return { root, outside, context, query };
  }

  it('refuses absolute paths, .., URLs and non-literal paths, in FROM and in every reader', async () => {
    const { outside, query } = await project();
    await expect(query(`SELECT * FROM '${outside}/secret.csv'`)).rejects.toThrow(/absolute paths are not allowed/);
    await expect(query(`SELECT * FROM '../secret.csv'`)).rejects.toThrow(/leads outside the project folder/);
    await expect(query(`SELECT * FROM read_csv('../secret.csv', header = true)`)).rejects.toThrow(/leads outside the project folder/);
    await expect(query(`SELECT * FROM read_text('/etc/passwd')`)).rejects.toThrow(/absolute paths are not allowed/);
    await expect(query(`SELECT * FROM read_blob(['bank.csv', '../secret.csv'])`)).rejects.toThrow(/leads outside/);
    await expect(query(`SELECT * FROM 'https://example.com/data.csv'`)).rejects.toThrow(/is a URL/);
    await expect(query(`SELECT * FROM read_csv('ban' || 'k.csv')`)).rejects.toThrow(/must be a quoted path/);
    await expect(query(`SELECT * FROM 'bank.csv' WHERE amount IN (SELECT 1 FROM '../private/other.csv')`)).rejects.toThrow(/leads outside/);
  });

  it('refuses a symlink that leads out, file or folder, also when a pattern matches it', async () => {
    const { root, outside, query } = await project();
    await symlink(path.join(outside, 'secret.csv'), path.join(root, 'innocent.csv'));
    await symlink(path.join(outside, 'private'), path.join(root, 'linked'));
    await symlink(path.join(outside, 'secret.csv'), path.join(root, 'data', 'more.csv'));
    await expect(query(`SELECT * FROM 'innocent.csv'`)).rejects.toThrow(/symlink that leads outside the project folder/);
    await expect(query(`SELECT * FROM 'linked/other.csv'`)).rejects.toThrow(/symlink that leads outside/);
    await expect(query(`SELECT * FROM read_csv('data/*.csv')`)).rejects.toThrow(/symlink that leads outside/);
    await expect(query(`SELECT * FROM 'data/*.csv'`)).rejects.toThrow(/symlink that leads outside/);
  });

  it('follows a symlink that stays inside, to the real file', async () => {
    const { root, query } = await project();
    await symlink(path.join(root, 'bank.csv'), path.join(root, 'alias.csv'));
    expect(await query(`SELECT sum(amount) AS total FROM 'alias.csv'`)).toContain('-12.5');
  });

  it('never reads .workbench/ or .git/, nor a hard-linked file whose other name may be outside', async () => {
    const { root, outside, query } = await project();
    await expect(query(`SELECT * FROM read_json('.workbench/tool-log.jsonl')`)).rejects.toThrow(/\.workbench\/ is never read/);
    await expect(query(`SELECT * FROM read_text('.git/config')`)).rejects.toThrow(/\.git\/ is never read/);
    await link(path.join(outside, 'secret.csv'), path.join(root, 'hard.csv'));
    await expect(query(`SELECT * FROM 'hard.csv'`)).rejects.toThrow(/hard links/);
  });

  it('runs only one read-only query: writing, attaching, installing and settings are refused, and nothing is written', async () => {
    const { root, query } = await project();
    const refused = [
      `COPY (SELECT 1) TO 'out.csv'`,
      `COPY (SELECT * FROM 'bank.csv') TO 'out.parquet' (FORMAT parquet)`,
      `EXPORT DATABASE 'exported'`,
      `CREATE TABLE t AS SELECT 1`,
      `ATTACH 'other.duckdb' AS other`,
      `INSTALL excel`,
      `LOAD httpfs`,
      `SET enable_external_access = true`,
      `PRAGMA disable_checkpoint_on_shutdown`,
      `SELECT 1; COPY (SELECT 1) TO 'out.csv'`,
    ];
    for (const sql of refused) await expect(query(sql), sql).rejects.toThrow(/Refused|one statement at a time/);
    await expect(query(`SELECT * FROM query('COPY (SELECT 1) TO ''out.csv''')`)).rejects.toThrow(/query\(\) is not available/);
    await expect(query(`SELECT * FROM glob('**')`)).rejects.toThrow(/glob\(\) is not available/);
    await expect(query(`SELECT * FROM duckdb_settings()`)).rejects.toThrow(/not available/);
    expect((await readdir(root)).sort()).toEqual(['.git', '.workbench', 'bank.csv', 'data']);
  });

  it('checks the filter and columns of table_read_rows like any query', async () => {
    const { context } = await project();
    await expect(runTool(tableReadRows, { path: 'bank.csv', where: `amount IN (SELECT 1 FROM read_text('/etc/passwd'))` }, context)).rejects.toThrow(/absolute paths/);
    await expect(runTool(tableReadRows, { path: 'bank.csv', where: `1 = 1) UNION ALL (SELECT * FROM '../secret.csv'` }, context)).rejects.toThrow(/leads outside/);
    await expect(runTool(tableDescribe, { path: '../secret.csv' }, context)).rejects.toThrow(/leads outside/);
  });

  it('refuses a writing query in Research as a tool result, and writes nothing', async () => {
    const { root, context } = await project();
    const log = { append: async (record: Omit<ToolLogRecord, 'id'>) => ({ ...record, id: 1 }) };
    const done = await executeToolCall({ name: 'table_query', arguments: JSON.stringify({ sql: `COPY (SELECT 1) TO 'x.csv'` }) }, { phase: 'research', runId: 'r', context, log });
    expect(done.ok).toBe(false);
    expect(done.result).toMatch(/^Refused: table_query runs one read-only query/);
    const write = await executeToolCall({ name: 'write_xlsx', arguments: { path: 'x.xlsx', sheets: [{ name: 'A', rows: [['a']] }] } }, { phase: 'plan', runId: 'r', context, log });
    expect(write).toMatchObject({ ok: false, refused: 'phase' });
    expect(existsSync(path.join(root, 'x.csv'))).toBe(false);
    expect(existsSync(path.join(root, 'x.xlsx'))).toBe(false);
  });
});

describe('the DuckDB session itself (the backstop under the query checker)', () => {
  const tempFolder = useTempFolders('rpi-tables-session-');

  it('opens no file outside the folder, whatever SQL reaches it, and its settings are locked', async () => {
    const outside = await tempFolder();
    const root = path.join(outside, 'project');
    await mkdir(root);
    await writeFile(path.join(outside, 'secret.csv'), 'a\n1\n');
    await writeFile(path.join(root, 'inside.csv'), 'a\n1\n');
    const session = await DuckSession.open({ root, signal: new AbortController().signal });
    try {
      await expect(session.run(`SELECT * FROM read_csv('${outside}/secret.csv')`)).rejects.toThrow(/Permission Error/);
      await expect(session.run(`SELECT * FROM read_csv('${root}/../secret.csv')`)).rejects.toThrow(/Permission Error/);
      await expect(session.run(`ATTACH '${outside}/other.duckdb'`)).rejects.toThrow(/Permission Error/);
      await expect(session.run(`SET enable_external_access = true`)).rejects.toThrow(/locked/);
      await expect(session.run(`SET allowed_directories = ['/']`)).rejects.toThrow(/locked/);
      await expect(session.run(`SET autoinstall_known_extensions = true`)).rejects.toThrow(/locked/);
      await expect(session.run(`INSTALL excel`)).rejects.toThrow();
      expect((await session.rows(`SELECT count(*) FROM read_csv('${root}/inside.csv')`))[0]).toEqual([1n]);
    } finally {
      await session.close();
    }
  });

  it('spills to a private temp folder, never to .tmp in the working directory, and removes it on close', async () => {
    const root = await tempFolder();
    const before = (await readdir(os.tmpdir())).filter((name) => name.startsWith('rpi-duckdb-'));
    const session = await DuckSession.open({ root, signal: new AbortController().signal, memoryLimitBytes: 64 * 1024 * 1024 });
    const during = (await readdir(os.tmpdir())).filter((name) => name.startsWith('rpi-duckdb-') && !before.includes(name));
    expect(during).toHaveLength(1);
    const [row] = await session.rows(`SELECT count(*) FROM (SELECT DISTINCT i::VARCHAR || 'x' FROM range(3000000) r(i))`);
    await session.close();
    expect(row).toEqual([3000000n]);
    expect(existsSync(path.join(os.tmpdir(), during[0]!))).toBe(false);
    expect(existsSync(path.join(process.cwd(), '.tmp'))).toBe(false);
    expect(await readdir(root)).toEqual([]);
  });

  it('stops a running query when the run is cancelled', async () => {
    const root = await tempFolder();
    const controller = new AbortController();
    const session = await DuckSession.open({ root, signal: controller.signal });
    try {
      setTimeout(() => controller.abort(new Error('cancelled by the user')), 200);
      await expect(session.rows('SELECT count(*) FROM range(100000000000)')).rejects.toThrow('cancelled by the user');
    } finally {
      await session.close();
    }
  });
});
