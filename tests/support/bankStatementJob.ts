import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { ScriptedTurn } from './fakeLlm/index.js';
import { call, planText, say } from './rpiScript.js';

/**
 * The seed's job (issue 17): a bank statement CSV in, a workbook with a sheet per expense category and a
 * summary out. The statement is written the way German banks export it (semicolons, decimal commas with
 * thousands dots, dd.mm.yyyy dates), so the job only works if the tools detect that.
 */
export const expenseCategories = ['Dining', 'Groceries', 'Rent', 'Transport', 'Utilities'] as const;

export interface StatementLine {
  date: string;
  description: string;
  /** In cents, so sums are exact. */
  cents: number;
  category: string;
}

const shops: Record<(typeof expenseCategories)[number], string[]> = {
  Dining: ['Pizzeria Roma', 'Café Central', 'Sushi Bar'],
  Groceries: ['REWE Markt', 'Bäckerei Lange', 'Wochenmarkt'],
  Rent: ['Miete Wohnung'],
  Transport: ['BVG Monatskarte', 'Tankstelle', 'DB Fernverkehr'],
  Utilities: ['Stadtwerke Strom', 'Telekom Internet'],
};

/** 63 lines over March 2024: a salary, rent over a thousand (a thousands dot), and expenses with cents. */
export function statementLines(): StatementLine[] {
  const lines: StatementLine[] = [{ date: '2024-03-01', description: 'Gehalt März ACME GmbH', cents: 385_000, category: 'Income' }];
  lines.push({ date: '2024-03-01', description: 'Miete Wohnung', cents: -125_000, category: 'Rent' });
  for (let index = 0; index < 61; index += 1) {
    const category = expenseCategories[[1, 1, 0, 3, 1, 4, 3, 0][index % 8]!]!;
    const names = shops[category];
    const day = 2 + (index % 29);
    lines.push({ date: `2024-03-${String(day).padStart(2, '0')}`, description: `${names[index % names.length]} ${index + 1}`, cents: -((index * 1373) % 9000) - 99, category });
  }
  return lines;
}

/** "-1.250,00" */
function germanAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(cents) / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${whole},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
}

export function statementCsv(lines = statementLines()): string {
  const rows = lines.map(({ date, description, cents, category }) => `${date.slice(8)}.${date.slice(5, 7)}.${date.slice(0, 4)};${description};${germanAmount(cents)};${category}`);
  return `Kontoauszug Girokonto DE12 3456 7890\n\nDate;Description;Amount;Category\n${rows.join('\n')}\n`;
}

export const bankRequest = 'Put my March expenses from statement.csv into an Excel workbook: one sheet per category and a summary sheet.';
export const bankResearch = '## Findings\nstatement.csv: 63 lines, semicolons, decimal commas, dates dd.mm.yyyy; negative amounts are expenses, one salary line.';
export const bankSummary = 'Created **expenses.xlsx** with one sheet per category (Dining, Groceries, Rent, Transport, Utilities) and a Summary sheet with totals.';

/** The scripted model: research with the table tools, a one-item plan, write_xlsx, a summary. */
export function bankJobTurns(): ScriptedTurn[] {
  const sheet = (category: string) => ({
    name: category,
    query: `SELECT Date, Description, Amount FROM 'statement.csv' WHERE Category = '${category}' AND Amount < 0 ORDER BY Date, Description`,
    columns: [{ name: 'Amount', number_format: '#,##0.00 "€"' }],
    totals: true,
  });
  return [
    call('table_get_map', {}),
    call('table_describe', { path: 'statement.csv' }),
    call('table_stats', { path: 'statement.csv', group_by: ['Category'], columns: ['Amount'] }),
    say(bankResearch),
    say(planText('Write expenses workbook')),
    call('write_xlsx', {
      path: 'expenses.xlsx',
      sheets: [
        ...expenseCategories.map(sheet),
        {
          name: 'Summary',
          query: `SELECT Category, count(*) AS Expenses, sum(Amount) AS Total FROM 'statement.csv' WHERE Amount < 0 GROUP BY Category ORDER BY Category`,
          columns: [{ name: 'Total', number_format: '#,##0.00 "€"' }],
          totals: true,
        },
      ],
    }),
    say('Wrote expenses.xlsx: five category sheets and a summary.'),
    say(bankSummary),
  ];
}

export interface WorkbookCheck {
  sheetNames: string[];
  /** Expense rows found across the category sheets, as "date|description|cents". */
  rows: string[];
  /** Per sheet: the sum of its amount cells and its totals row, in cents. */
  sums: Record<string, { cells: number; totalsRow: number }>;
  summary: { category: string; count: number; cents: number }[];
  summaryTotal: number;
  /** Cells of amount columns that are not stored as numbers. */
  nonNumbers: string[];
}

const cents = (value: unknown) => Math.round(Number(value) * 100);

/** Opens the workbook with SheetJS, a different reader than the exceljs writer, and collects what the checks need. */
export async function readExpensesWorkbook(file: string): Promise<WorkbookCheck> {
  const book = XLSX.read(await readFile(file), { cellDates: true });
  const check: WorkbookCheck = { sheetNames: book.SheetNames, rows: [], sums: {}, summary: [], summaryTotal: 0, nonNumbers: [] };
  for (const name of book.SheetNames.filter((each) => each !== 'Summary')) {
    const sheet = book.Sheets[name]!;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 }).slice(1);
    const data = rows.slice(0, -1);
    data.forEach((row, index) => {
      const amount = sheet[`C${index + 2}`];
      if (amount?.t !== 'n') check.nonNumbers.push(`${name}!C${index + 2}`);
      const date = row[0] instanceof Date ? row[0].toISOString().slice(0, 10) : String(row[0]);
      check.rows.push(`${date}|${String(row[1])}|${cents(row[2])}`);
    });
    const totals = sheet[`C${data.length + 2}`];
    check.sums[name] = { cells: data.reduce((sum, row) => sum + cents(row[2]), 0), totalsRow: totals?.f?.startsWith('SUM(') ? cents(totals.v) : NaN };
  }
  const summary = book.Sheets['Summary'];
  if (summary) {
    const rows = XLSX.utils.sheet_to_json<unknown[]>(summary, { header: 1 }).slice(1);
    check.summary = rows.slice(0, -1).map((row) => ({ category: String(row[0]), count: Number(row[1]), cents: cents(row[2]) }));
    check.summaryTotal = cents(summary[`C${rows.length + 1}`]?.v);
  }
  return check;
}

/** Every tool result the model was sent, across all phases. */
export function toolResultsSeen(requests: readonly ChatCompletionCreateParams[]): string[] {
  return requests.flatMap((request) => request.messages.flatMap((message) => (message.role === 'tool' && typeof message.content === 'string' ? [message.content] : [])));
}
