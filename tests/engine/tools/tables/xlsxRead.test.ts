import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { tableDescribe } from '../../../../engine/tools/tableDescribe.js';
import { tableGetMap } from '../../../../engine/tools/tableGetMap.js';
import { tableQuery } from '../../../../engine/tools/tableQuery.js';
import { tableReadRows } from '../../../../engine/tools/tableReadRows.js';
import { runTool, toolContextFor } from '../../../support/toolContext.js';
import { useTempFolders } from '../../../support/tempFolder.js';

/** A statement as people make them in Excel: a merged title, a blank row, the table, a SUM row; and a notes sheet. */
async function statementWorkbook(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Notes').addRow(['Exported from the bank on 2024-04-02']);
  const sheet = workbook.addWorksheet('März');
  sheet.addRow(['Kontoauszug März 2024']);
  sheet.mergeCells('A1:C1');
  sheet.addRow([]);
  sheet.addRow(['Datum', 'Text', 'Betrag']);
  sheet.addRow([new Date(Date.UTC(2024, 2, 1)), 'Miete', -850]);
  sheet.addRow([new Date(Date.UTC(2024, 2, 2)), 'Gehalt', 2500.5]);
  sheet.addRow([new Date(Date.UTC(2024, 2, 5)), 'Bäckerei', -4.35]);
  sheet.addRow(['Summe', null, { formula: 'SUM(C4:C6)', result: 1646.15 }]);
  sheet.getColumn(1).numFmt = 'dd.mm.yyyy';
  sheet.views = [{ state: 'frozen', ySplit: 3 }];
  await workbook.xlsx.writeFile(file);
}

describe('reading Excel workbooks', () => {
  const tempFolder = useTempFolders('rpi-tables-xlsx-');

  async function project() {
    const root = await tempFolder();
    await statementWorkbook(path.join(root, 'statement.xlsx'));
    return { root, context: await toolContextFor(root) };
  }

  it('describes a sheet: used range, the title above the table, merged cells, formulas, the totals row left out', async () => {
    const { context } = await project();
    const description = await runTool(tableDescribe, { path: 'statement.xlsx', sheet: 'märz' }, context);
    expect(description).toContain('statement.xlsx — Excel workbook');
    expect(description).toContain('3 rows × 3 columns');
    expect(description).toContain('Sheet "März" (sheets: "Notes", "März").');
    expect(description).toContain('Used range A1:C7.');
    expect(description).toContain('Header in row 3.');
    expect(description).toContain('Above the table, row 1: "Kontoauszug März 2024" (merged A1:C1).');
    expect(description).toContain('Left out of the table: row 7 at the bottom, which sums up the rows above (totals)');
    expect(description).toContain('Merged cells: 1 range (A1:C1).');
    expect(description).toContain('Formulas: 1 cell (C7: =SUM(C4:C6)).');
    expect(description).toContain('Frozen panes: 3 rows, 0 columns.');
    expect(description).toContain('Datum | date | 0 | 3 | 2024-03-01 | 2024-03-05');
    expect(description).toContain('Betrag | decimal | 0 | 3 | -850 | 2500.5');
    expect(description).toContain("In table_query: FROM read_xlsx('statement.xlsx', sheet = 'März').");
  });

  it('queries a sheet by name, the first sheet by path, and a range without guessing', async () => {
    const { context } = await project();
    const sum = await runTool(tableQuery, { sql: `SELECT count(*) AS n, sum(Betrag) AS total FROM read_xlsx('statement.xlsx', sheet = 'März')` }, context);
    expect(sum).toBe('1 row, 2 columns\nn (integer) | total (decimal)\n3 | 1646.15');
    expect(await runTool(tableQuery, { sql: `SELECT * FROM 'statement.xlsx'` }, context)).toContain('Exported from the bank on 2024-04-02');
    const range = await runTool(tableQuery, { sql: `SELECT * FROM read_xlsx('statement.xlsx', sheet = 'März', range = 'A7:C7', header = false)` }, context);
    expect(range).toBe('1 row, 3 columns\nA (text) | B (text) | C (decimal)\nSumme | NULL | 1646.15');
    await expect(runTool(tableQuery, { sql: `SELECT * FROM read_xlsx('statement.xlsx', sheet = 'April')` }, context)).rejects.toThrow('statement.xlsx has no sheet "April"; its sheets are "Notes", "März".');
    expect(await runTool(tableReadRows, { path: 'statement.xlsx', sheet: 'März', where: 'Betrag < 0' }, context)).toContain('rows 1–2 of 2 matching Betrag < 0');
  });

  it('maps a workbook with each sheet and reads one written by another library (SheetJS)', async () => {
    const { root, context } = await project();
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['when', 'n', 'ok'], [new Date(Date.UTC(2024, 0, 2)), 1.5, true], [new Date(Date.UTC(2024, 0, 3)), 2, false]], { cellDates: true }), 'Data');
    await writeFile(path.join(root, 'other.xlsx'), XLSX.write(book, { type: 'buffer', bookType: 'xlsx', cellDates: true }) as Buffer);

    const map = await runTool(tableGetMap, {}, context);
    expect(map).toContain('other.xlsx — Excel workbook');
    expect(map).toContain('  sheet "Data": A1:C3 (3 rows × 3 columns, header included)');
    expect(map).toContain('  sheet "März": A1:C7 (7 rows × 3 columns, header included)');
    expect(await runTool(tableQuery, { sql: `SELECT * FROM 'other.xlsx'` }, context)).toBe('2 rows, 3 columns\nwhen (date) | n (decimal) | ok (boolean)\n2024-01-02 | 1.5 | true\n2024-01-03 | 2 | false');
  });

  it('refuses what is not a workbook', async () => {
    const { root, context } = await project();
    await writeFile(path.join(root, 'fake.xlsx'), 'plain text');
    await expect(runTool(tableDescribe, { path: 'fake.xlsx' }, context)).rejects.toThrow(/fake.xlsx is not a valid Office file/);
    await expect(runTool(tableDescribe, { path: 'statement.xlsx', sheet: 'x' }, context)).rejects.toThrow(/has no sheet "x"/);
  });
});
