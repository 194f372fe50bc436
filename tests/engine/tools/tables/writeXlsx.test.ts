import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { sheetNameProblem } from '../../../../engine/tools/tables/sheetNames.js';
import { xlsxGetStyles } from '../../../../engine/tools/officeStyles.js';
import { writeXlsx } from '../../../../engine/tools/writeXlsx.js';
import { runTool, toolContextFor } from '../../../support/toolContext.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

/** The workbook as SheetJS (another library than the writer) reads it. */
async function readBack(file: string): Promise<XLSX.WorkBook> {
  return XLSX.read(await readFile(file), { cellDates: true, cellStyles: true });
}

describe('write_xlsx', () => {
  const tempFolder = useTempFolders('rpi-tables-write-');

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'bank.csv': 'date;text;amount;category\n01.03.2024;Rent;-850,00;Home\n02.03.2024;Salary;2.500,00;Income\n05.03.2024;Bakery;-4,35;Food\n06.03.2024;Market;-20,10;Food\n' });
    return { root, context: await toolContextFor(root) };
  }

  it('writes sheets from a query and from literal rows: numbers as numbers, dates as dates, formats, a bold frozen header, SUM totals', async () => {
    const { root, context } = await project();
    const result = await runTool(
      writeXlsx,
      {
        path: 'out/report.xlsx',
        sheets: [
          { name: 'Food', query: `SELECT date, text, amount FROM 'bank.csv' WHERE category = 'Food' ORDER BY date`, columns: [{ name: 'amount', number_format: '#,##0.00 "€"', width: 14 }], totals: true },
          { name: 'Summary', columns: [{ name: 'category' }, { name: 'spent', type: 'decimal' }, { name: 'since', type: 'date' }], rows: [['Food', -24.45, '2024-03-05'], { category: 'Home', spent: -850, since: '2024-03-01' }], totals: ['spent'], freeze_header: false },
        ],
      },
      context,
    );
    expect(result).toMatch(/^Created out\/report\.xlsx \([\d.]+ KB\): sheet "Food" 2 rows × 3 columns, totals of amount; sheet "Summary" 2 rows × 3 columns, totals of spent\.$/);

    const book = await readBack(path.join(root, 'out/report.xlsx'));
    expect(book.SheetNames).toEqual(['Food', 'Summary']);
    const food = book.Sheets['Food']!;
    expect(XLSX.utils.sheet_to_json(food, { header: 1 })).toEqual([
      ['date', 'text', 'amount'],
      [new Date(Date.UTC(2024, 2, 5)), 'Bakery', -4.35],
      [new Date(Date.UTC(2024, 2, 6)), 'Market', -20.1],
      ['Total', undefined, -24.45],
    ]);
    expect(food['A2']).toMatchObject({ t: 'd' });
    expect(food['C2']).toMatchObject({ t: 'n', v: -4.35, z: '#,##0.00 "€"' });
    expect(food['C4']).toMatchObject({ t: 'n', f: 'SUM(C2:C3)', v: -24.45 });
    expect(food['!cols']?.[2]).toMatchObject({ width: 14 });
    const summary = book.Sheets['Summary']!;
    expect(summary['B3']).toMatchObject({ t: 'n', v: -850 });
    expect(summary['C3']).toMatchObject({ t: 'd', z: 'yyyy-mm-dd' });
    expect(summary['B4']).toMatchObject({ f: 'SUM(B2:B3)', v: -874.45 });

    const styles = await runTool(xlsxGetStyles, { path: 'out/report.xlsx' }, context);
    expect(styles).toMatch(/Fonts, \d+: .*bold/);
    expect(styles).toContain('"Food": column widths');
    expect(styles).toContain('frozen 1 row, 0 columns');
    expect(styles).toMatch(/"Summary": .*nothing frozen/);
  });

  it('checks sheet names as Excel does and says which rule a name breaks', async () => {
    const { root, context } = await project();
    const write = (names: string[]) => runTool(writeXlsx, { path: 'x.xlsx', sheets: names.map((name) => ({ name, rows: [['a']] })) }, context);
    await expect(write(['Food/Drinks'])).rejects.toThrow('Refused: sheet name "Food/Drinks" is refused: Excel does not allow the characters [ ] : * ? / \\ in sheet names, and this one has "/". Rename the sheet and call write_xlsx again.');
    await expect(write(['A'.repeat(32)])).rejects.toThrow('Excel allows at most 31 characters in a sheet name, and this one has 32');
    await expect(write(['Food', 'FOOD'])).rejects.toThrow('Excel compares sheet names without regard to case, so "Food" and "FOOD" are the same name');
    await expect(write(['history'])).rejects.toThrow('Excel keeps the name "History" for itself');
    await expect(write(["'quoted"])).rejects.toThrow('begin or end with an apostrophe');
    await expect(write([''])).rejects.toThrow('cannot be empty');
    expect(['[', ']', ':', '*', '?', '/', '\\'].map((bad) => sheetNameProblem(`a${bad}b`) !== null)).toEqual(Array(7).fill(true));
    expect(sheetNameProblem('Lebensmittel & Getränke 2024')).toBeNull();
    await expect(readFile(path.join(root, 'x.xlsx'))).rejects.toThrow();
  });

  it('refuses values that do not fit their column, naming the cell, and writes nothing', async () => {
    const { root, context } = await project();
    const sheets = [{ name: 'A', columns: [{ name: 'amount', type: 'decimal' }], rows: [[1.5], ['12,50']] }];
    await expect(runTool(writeXlsx, { path: 'bad.xlsx', sheets }, context)).rejects.toThrow('sheet "A", row 2, column "amount": "12,50" is not a number');
    await expect(runTool(writeXlsx, { path: 'bad.xlsx', sheets: [{ name: 'A', columns: [{ name: 'd', type: 'date' }], rows: [['2024-02-30']] }] }, context)).rejects.toThrow('"2024-02-30" is not a date (write dates as YYYY-MM-DD)');
    await expect(runTool(writeXlsx, { path: 'bad.xlsx', sheets: [{ name: 'A', rows: [['a']], query: 'SELECT 1' }] }, context)).rejects.toThrow('give either rows or query');
    await expect(runTool(writeXlsx, { path: 'bad.xlsx', sheets: [{ name: 'A', query: `SELECT 1 AS x`, totals: ['y'] }] }, context)).rejects.toThrow('totals names "y", which is not a number column');
    await expect(runTool(writeXlsx, { path: 'bad.csv', sheets: [{ name: 'A', rows: [['a']] }] }, context)).rejects.toThrow('does not end in .xlsx');
    await expect(runTool(writeXlsx, { path: 'bad.xlsx', sheets: [{ name: 'A', query: `COPY (SELECT 1) TO 'x.csv'` }] }, context)).rejects.toThrow(/^Refused: table_query runs one read-only query/);
    await expect(readFile(path.join(root, 'bad.xlsx'))).rejects.toThrow();
  });

  it('takes the first row as the header when rows come without columns, and infers types from JSON values', async () => {
    const { root, context } = await project();
    await runTool(writeXlsx, { path: 'plain.xlsx', sheets: [{ name: 'Data', rows: [['when', 'count', 'ok'], ['2024-01-02', 3, true], ['2024-01-03', 4, false]] }] }, context);
    const sheet = (await readBack(path.join(root, 'plain.xlsx'))).Sheets['Data']!;
    expect(sheet['A2']).toMatchObject({ t: 'd' });
    expect(sheet['B2']).toMatchObject({ t: 'n', v: 3 });
    expect(sheet['C3']).toMatchObject({ t: 'b', v: false });
  });
});
