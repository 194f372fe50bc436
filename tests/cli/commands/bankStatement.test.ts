import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bankJobTurns, bankRequest, bankSummary, expenseCategories, readExpensesWorkbook, statementCsv, statementLines, toolResultsSeen } from '../../support/bankStatementJob.js';
import { parseJsonEvents, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('the bank statement job through the CLI', () => {
  const tempFolder = useTempFolders('rpi-cli-bank-');
  const llm = useFakeLlm();
  const cli = useCli();

  async function project() {
    const root = await tempFolder();
    await writeFile(path.join(root, 'statement.csv'), statementCsv(), 'latin1');
    llm().enqueue(...bankJobTurns());
    return root;
  }

  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  it('runs research, plan, write_xlsx and the summary with the real tools, and prints the summary alone on stdout', { timeout: 60_000 }, async () => {
    const root = await project();

    const run = await cli.run(['run', root, bankRequest, '--yes', ...model()]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${bankSummary}\n`);
    expect(run.stderr).toMatch(/✓ table_describe statement\.csv/);
    expect(run.stderr).toMatch(/✓ write_xlsx expenses\.xlsx/);
    const workbook = await readExpensesWorkbook(path.join(root, 'expenses.xlsx'));
    const expenses = statementLines().filter((line) => line.cents < 0);
    expect(workbook.sheetNames).toEqual([...expenseCategories, 'Summary']);
    expect(workbook.rows).toHaveLength(expenses.length);
    expect(workbook.summaryTotal).toBe(expenses.reduce((sum, line) => sum + line.cents, 0));
    expect(workbook.nonNumbers).toEqual([]);
    expect(toolResultsSeen(llm().chatRequests()).filter((text) => text.includes('.workbench'))).toEqual([]);
    const conversation = (await readFile(path.join(conversationDir(root), 'conversation.jsonl'), 'utf8')).trim().split('\n');
    expect(conversation.map((line) => (JSON.parse(line) as { text: string }).text)).toEqual([bankRequest, bankSummary]);
  });

  it('--json shows each table tool finishing, the workbook write approved, and a done run', { timeout: 60_000 }, async () => {
    const root = await project();

    const run = await cli.run(['run', root, bankRequest, '--json', '--yes', ...model()]);

    expect(run.code, run.stderr).toBe(0);
    const events = parseJsonEvents(run.stdout);
    const started = events.flatMap((event) => (event.type === 'tool-started' ? [event.tool] : []));
    expect(started).toEqual(['table_get_map', 'table_describe', 'table_stats', 'write_xlsx']);
    expect(events.filter((event) => event.type === 'tool-finished').every((event) => event.type === 'tool-finished' && event.ok)).toBe(true);
    expect(events.find((event) => event.type === 'approval-requested')).toMatchObject({ tool: 'write_xlsx', path: path.join(root, 'expenses.xlsx') });
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', status: 'done' });
  });
});
