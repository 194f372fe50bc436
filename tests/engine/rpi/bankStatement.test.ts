import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bankJobTurns,
  bankRequest,
  bankSummary,
  expenseCategories,
  readExpensesWorkbook,
  statementCsv,
  statementLines,
  toolResultsSeen,
} from '../../support/bankStatementJob.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, phaseOfRequest, recordEvents } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('the bank statement job, end to end with the real table tools', () => {
  const tempFolder = useTempFolders('rpi-bank-job-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('researches the statement, plans, writes a workbook with a sheet per category and a summary, and answers', { timeout: 60_000 }, async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'statement.csv'), statementCsv(), 'latin1');
    llm().enqueue(...bankJobTurns());
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, bankRequest)).finished;

    expect(result).toMatchObject({ status: 'done', summary: bankSummary });
    const failed = events.filter((event) => event.type === 'tool-finished' && !event.ok);
    expect(failed).toEqual([]);
    const finished = events.flatMap((event) => (event.type === 'tool-finished' ? [event] : []));
    expect(finished[2]?.table).toMatchObject({ columns: ['Category (text)', 'rows (integer)', 'sum Amount (decimal)'], more: 0 });
    expect(finished[2]?.table?.rows.map((row) => row[0])).toEqual(['Groceries', 'Dining', 'Transport', 'Utilities', 'Income', 'Rent', '(all rows)']);

    // What research saw: the detected dialect and the real per-category sums.
    const results = toolResultsSeen(llm().chatRequests());
    const lines = statementLines();
    const expenses = lines.filter((line) => line.cents < 0);
    const describe = results.find((text) => text.startsWith('statement.csv — CSV'))!;
    expect(describe).toContain('delimiter ";"');
    expect(describe).toContain('decimal comma in "Amount"');
    expect(describe).toContain('dates written %d.%m.%Y');
    expect(describe).toContain('encoding Latin-1');
    expect(describe).toContain(`${lines.length} rows × 4 columns`);
    const stats = results.find((text) => text.startsWith('statement.csv: 6 groups by Category'))!;
    for (const category of expenseCategories) {
      const sum = expenses.filter((line) => line.category === category).reduce((total, line) => total + line.cents, 0);
      expect(stats).toMatch(new RegExp(`\\n${category} \\| \\d+ \\| ${String(sum / 100).replace('.', '\\.')}\\n`));
    }

    // The workbook, read by SheetJS: one sheet per category, every expense in exactly one sheet, sums to the cent.
    const workbook = await readExpensesWorkbook(path.join(root, 'expenses.xlsx'));
    expect(workbook.sheetNames).toEqual([...expenseCategories, 'Summary']);
    const expected = expenses.map((line) => `${line.date}|${line.description}|${line.cents}`);
    expect([...workbook.rows].sort()).toEqual([...expected].sort());
    expect(new Set(workbook.rows).size).toBe(workbook.rows.length);
    for (const category of expenseCategories) {
      const sum = expenses.filter((line) => line.category === category).reduce((total, line) => total + line.cents, 0);
      expect(workbook.sums[category], category).toEqual({ cells: sum, totalsRow: sum });
    }
    const total = expenses.reduce((sum, line) => sum + line.cents, 0);
    expect(workbook.summary.map((row) => row.category)).toEqual([...expenseCategories]);
    expect(workbook.summary.reduce((sum, row) => sum + row.count, 0)).toBe(expenses.length);
    expect(workbook.summary.reduce((sum, row) => sum + row.cents, 0)).toBe(total);
    expect(workbook.summaryTotal).toBe(total);
    expect(workbook.nonNumbers).toEqual([]);

    // No .workbench entry in any list the model saw; the conversation holds the request and the summary only.
    expect(results.length).toBeGreaterThanOrEqual(4);
    expect(results.filter((text) => text.includes('.workbench'))).toEqual([]);
    const conversation = (await readFile(path.join(conversationDir(root), 'conversation.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { role: string; text: string });
    expect(conversation.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'user', text: bankRequest },
      { role: 'assistant', text: bankSummary },
    ]);
    expect(llm().chatRequests().map(phaseOfRequest)).toEqual(['research', 'research', 'research', 'research', 'plan', 'implement', 'implement', 'summary']);
  });
});
