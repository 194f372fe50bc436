import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useCli, type CliOptions } from '../support/cliProcess.js';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../support/rpiScript.js';
import { useTempFolders, writeTree } from '../support/tempFolder.js';

const probe = fileURLToPath(new URL('../support/loadedPackages.cjs', import.meta.url));

/** The libraries that take longer to load than most commands run; each is loaded only when its tool or server is used. */
const heavy = { duckdb: '@duckdb/node-api/', exceljs: 'exceljs/', mcpClient: '@modelcontextprotocol/sdk/dist/cjs/client/' };

describe('what a command loads', () => {
  const tempFolder = useTempFolders('rpi-cli-load-');
  const llm = useFakeLlm();
  const cli = useCli();

  /** Runs the CLI and answers which of the heavy libraries its process loaded. */
  async function loadedBy(args: string[], options: CliOptions = {}) {
    const record = path.join(await tempFolder(), 'loaded.txt');
    const result = await cli.run(args, { env: { ...options.env, NODE_OPTIONS: `--require ${probe}`, RPI_TEST_LOADED_PACKAGES: record } });
    const files = (await readFile(record, 'utf8')).split('\n');
    const used = Object.fromEntries(Object.entries(heavy).map(([name, prefix]) => [name, files.some((file) => file.startsWith(prefix))]));
    return { result, used, files };
  }

  it('history and conversations load neither DuckDB, ExcelJS nor the MCP client', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'bank.csv': 'date,amount\n2024-01-02,-12.50\n' });
    for (const args of [['history', root], ['conversations', root, '--json']]) {
      const { result, used, files } = await loadedBy(args);
      expect(result.code, result.stderr).toBe(0);
      expect(files.length, 'the probe saw the CLI load its libraries').toBeGreaterThan(10);
      expect(used).toEqual({ duckdb: false, exceljs: false, mcpClient: false });
    }
  });

  it('a run loads DuckDB when a table tool runs, and not ExcelJS until a workbook is written', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'bank.csv': 'date,amount\n2024-01-02,-12.50\n2024-01-03,40.00\n' });
    llm().enqueue(
      call('table_query', { sql: "SELECT sum(amount) AS total FROM 'bank.csv'" }),
      say('bank.csv sums to 27.50.'),
      say(planText('Note the total')),
      call('write_file', { path: 'total.txt', content: '27.50\n' }),
      say('Wrote total.txt.'),
      say('Noted the total.'),
    );
    const { result, used } = await loadedBy(['run', root, 'Note the total of bank.csv', '--yes', '--base-url', llm().baseUrl, '--model', 'gpt-4.1-mini']);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(path.join(root, 'total.txt'), 'utf8')).toBe('27.50\n');
    expect(used).toEqual({ duckdb: true, exceljs: false, mcpClient: false });
  });
});
