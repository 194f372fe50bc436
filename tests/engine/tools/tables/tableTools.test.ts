import { describe, expect, it } from 'vitest';
import { tableGetMap } from '../../../../engine/tools/tableGetMap.js';
import { tableQuery } from '../../../../engine/tools/tableQuery.js';
import { tableReadRows } from '../../../../engine/tools/tableReadRows.js';
import { tableStats } from '../../../../engine/tools/tableStats.js';
import { runTool, toolContextFor } from '../../../support/toolContext.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

const categories = ['Groceries', 'Rent', 'Transport'];
const entries = Array.from({ length: 250 }, (_, index) => ({ index, amount: -((index % 50) + 0.25), category: categories[index % 3]! }));
const ledger = ['date,description,amount,category', ...entries.map(({ index, amount, category }) => `2024-03-${String((index % 28) + 1).padStart(2, '0')},item ${index},${amount},${category}`)].join('\n');
/** The sum of a category's amounts to the cent, as the tools print it. */
const sumOf = (category?: string) => String(Math.round(entries.filter((entry) => !category || entry.category === category).reduce((sum, entry) => sum + entry.amount, 0) * 100) / 100);

describe('the table research tools', () => {
  const tempFolder = useTempFolders('rpi-tables-tools-');

  async function project() {
    const root = await tempFolder();
    await writeTree(root, {
      'ledger.csv': `${ledger}\n`,
      'logs/events.jsonl': '{"kind":"a"}\n{"kind":"b"}\n',
      'old/budget.xls': 'not really',
      'build/generated.csv': 'a\n1\n',
      '.gitignore': 'build/\n',
      '.workbench/tool-log.jsonl': '{"id":1}\n',
      'notes.md': '# notes\n',
    });
    return { root, context: await toolContextFor(root) };
  }

  it('maps every table file with rows × columns and names; .gitignore honoured, .workbench never listed', async () => {
    const { context } = await project();
    const map = await runTool(tableGetMap, {}, context);
    expect(map.split('\n')).toEqual([
      '3 table files under . (.gitignore honoured):',
      'ledger.csv — CSV, 8.5 KB, 250 rows × 4 columns: date, description, amount, category',
      'logs/events.jsonl — JSON lines, 26 B, 2 rows × 1 column: kind',
      'old/budget.xls — an Excel 97–2003 workbook (.xls), which is not read; save it as .xlsx',
    ]);
    expect(map).not.toContain('.workbench');
    expect(await runTool(tableGetMap, { path: 'logs' }, context)).toContain('1 table file under logs');
    await expect(runTool(tableGetMap, { path: '.workbench' }, context)).rejects.toThrow(/never listed/);
  });

  it('gives per-column statistics, and counts and sums by group with totals over all rows', async () => {
    const { context } = await project();
    const stats = await runTool(tableStats, { path: 'ledger.csv', columns: ['amount', 'category'] }, context);
    expect(stats).toContain('ledger.csv: statistics of 250 rows');
    expect(stats).toContain('column | type | nulls | distinct | min | max | mean | median | sum');
    expect(stats).toMatch(/amount \| decimal \| 0 \| 50 \| -49.25 \| -0.25 \| -24\.\d+ \| -24\.\d+ \| -6187.5/);
    expect(stats).toContain('category | text | 0 | 3 | Groceries | Transport |  |  | ');

    const grouped = await runTool(tableStats, { path: 'ledger.csv', group_by: ['category'], columns: ['amount'] }, context);
    expect(grouped.split('\n')).toEqual([
      'ledger.csv: 3 groups by category',
      'category (text) | rows (integer) | sum amount (decimal)',
      `Groceries | 84 | ${sumOf('Groceries')}`,
      `Rent | 83 | ${sumOf('Rent')}`,
      `Transport | 83 | ${sumOf('Transport')}`,
      `(all rows) | 250 | ${sumOf()}`,
    ]);
    await expect(runTool(tableStats, { path: 'ledger.csv', group_by: ['Kategorie'] }, context)).rejects.toThrow('group_by: there is no column "Kategorie". The columns are: date, description, amount, category.');
  });

  it('reads rows a page at a time, with chosen columns and a filter, saying how to read on', async () => {
    const { context } = await project();
    const page = await runTool(tableReadRows, { path: 'ledger.csv', columns: ['description', 'amount'], where: "category = 'Rent'", offset: 10, limit: 2 }, context);
    expect(page.split('\n')).toEqual([
      "ledger.csv: rows 11–12 of 83 matching category = 'Rent'",
      'description (text) | amount (decimal)',
      'item 31 | -31.25',
      'item 34 | -34.25',
      "[71 more: call again with offset 12.]",
    ]);
    expect(await runTool(tableReadRows, { path: 'ledger.csv', offset: 300 }, context)).toMatch(/^ledger.csv: no rows after offset 300 \(250 rows in all\)/);
  });

  it('caps a query result at 100 rows and says the total and how to narrow it', async () => {
    const { context } = await project();
    const result = await runTool(tableQuery, { sql: `SELECT description, amount FROM 'ledger.csv'` }, context);
    const lines = result.split('\n');
    expect(lines[0]).toBe('250 rows, 2 columns');
    expect(lines[1]).toBe('description (text) | amount (decimal)');
    expect(lines).toHaveLength(2 + 100 + 1);
    expect(lines.at(-1)).toBe('[Showing 100 of 250 rows. Narrow the query with WHERE, aggregate with GROUP BY, or page with LIMIT and OFFSET.]');
  });

  it('explains a query DuckDB cannot run, in terms of the folder, not absolute paths', async () => {
    const { root, context } = await project();
    const failure = runTool(tableQuery, { sql: `SELECT nosuch FROM 'ledger.csv'` }, context);
    await expect(failure).rejects.toThrow(/nosuch/);
    await expect(failure).rejects.not.toThrow(root);
  });
});
