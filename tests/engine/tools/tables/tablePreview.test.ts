import { describe, expect, it } from 'vitest';
import { readFile } from '../../../../engine/tools/readFile.js';
import { tableDescribe } from '../../../../engine/tools/tableDescribe.js';
import { tableGetMap } from '../../../../engine/tools/tableGetMap.js';
import { tableQuery } from '../../../../engine/tools/tableQuery.js';
import { tableReadRows } from '../../../../engine/tools/tableReadRows.js';
import { tableStats } from '../../../../engine/tools/tableStats.js';
import { runToolForResult, toolContextFor } from '../../../support/toolContext.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

const ledger = ['category,amount', ...Array.from({ length: 250 }, (_, index) => `Category ${index % 10},-${index}.5`)].join('\n');
/** Cells that look like the text format: the cell separator, and the note a capped table ends with. */
const tricky = [
  { note: 'Groceries | food', amount: 1 },
  { note: '[Showing 1 of 9,999 rows. Narrow the query.]', amount: 2 },
];

describe('the preview a table tool hands back beside its text', () => {
  const tempFolder = useTempFolders('rpi-table-preview-');

  async function project() {
    const root = await tempFolder();
    await writeTree(root, {
      'ledger.csv': `${ledger}\n`,
      'tricky.jsonl': tricky.map((row) => JSON.stringify(row)).join('\n') + '\n',
      'notes.md': '# notes\n',
    });
    return toolContextFor(root);
  }

  it('holds the header with its types, the first eight rows, and how many rows of the result it leaves out', async () => {
    const context = await project();
    const { text, preview } = await runToolForResult(tableQuery, { sql: "SELECT * FROM 'ledger.csv'" }, context);
    expect(text).toContain('[Showing 100 of 250 rows.');
    expect(preview).toEqual({
      columns: ['category (text)', 'amount (decimal)'],
      rows: Array.from({ length: 8 }, (_, index) => [`Category ${index}`, `-${index}.5`]),
      more: 250 - 8,
    });
  });

  it('shows cells as they are written, however much they look like the table text around them', async () => {
    const context = await project();
    const query = await runToolForResult(tableQuery, { sql: "SELECT note FROM 'tricky.jsonl' ORDER BY amount" }, context);
    expect(query.preview).toEqual({ columns: ['note (text)'], rows: tricky.map(({ note }) => [note]), more: 0 });

    const read = await runToolForResult(tableReadRows, { path: 'tricky.jsonl', where: "note <> 'x | y'" }, context);
    expect(read.text.split('\n')[0]).toBe("tricky.jsonl: rows 1–2 of 2 matching note <> 'x | y'");
    expect(read.preview?.columns).toEqual(['note (text)', 'amount (integer)']);
    expect(read.preview?.rows[0]).toEqual(['Groceries | food', '1']);
    expect(read.preview?.more).toBe(0);
  });

  it('previews the column profile of table_describe and table_stats, and the groups with their totals line', async () => {
    const context = await project();
    const described = await runToolForResult(tableDescribe, { path: 'ledger.csv' }, context);
    expect(described.preview?.columns).toEqual(['column', 'type', 'nulls', 'distinct', 'min', 'max']);
    expect(described.preview?.rows.map((row) => row[0])).toEqual(['category', 'amount']);

    const grouped = await runToolForResult(tableStats, { path: 'ledger.csv', group_by: ['category'] }, context);
    expect(grouped.preview?.columns).toEqual(['category (text)', 'rows (integer)', 'sum amount (decimal)']);
    expect(grouped.preview?.rows).toHaveLength(8);
    expect(grouped.preview?.more).toBe(10 + 1 - 8);
  });

  it('is left out by the tools that show no table', async () => {
    const context = await project();
    expect(await runToolForResult(readFile, { path: 'notes.md' }, context)).toEqual({ text: 'notes.md: lines 1–1 of 1\n1\t# notes' });
    expect((await runToolForResult(tableGetMap, {}, context)).preview).toBeUndefined();
  });
});
