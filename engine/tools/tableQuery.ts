import { z } from 'zod';
import { capNote } from './tables/cappedRows.js';
import { runCheckedQuery, withTables } from './tables/tableRun.js';
import { tablePreview } from './tables/tablePreview.js';
import { plural, tableText } from './tables/tableText.js';
import { defineTool } from './tool.js';

const maxRows = 100;
const maxChars = 12_000;

export const tableQuery = defineTool({
  name: 'table_query',
  description:
    'Run one SQL query (DuckDB dialect) over the table files in the project folder, naming a file by its path relative to ' +
    "the folder in single quotes: SELECT category, count(*), sum(amount) FROM 'data/bank.csv' WHERE amount < 0 GROUP BY ALL ORDER BY 3. " +
    'A quoted CSV path is read with the dialect table_describe reports (delimiter, header, encoding, decimal comma, date format); ' +
    "read_csv('x.csv', delim=';', …) reads with your own options. Workbooks: FROM 'book.xlsx' (first sheet) or " +
    "read_xlsx('book.xlsx', sheet='March', header=true, range='A3:F200'). Parquet and JSON lines by path too; a pattern such as " +
    "'logs/*.csv' reads several files. The query only reads: nothing can be written. The result shows at most " +
    `${maxRows} rows with the total row count; aggregate or filter in SQL rather than paging through raw rows.`,
  parameters: z.object({
    sql: z.string().min(1).describe("One read-only query, e.g. SELECT * FROM 'data/bank.csv' LIMIT 20."),
  }),
  mutates: false,
  async run({ sql }, context) {
    return withTables(context, async (tables) => {
      const rows = await runCheckedQuery(tables, sql, { maxRows, maxChars });
      const note = capNote(rows, 'Narrow the query with WHERE, aggregate with GROUP BY, or page with LIMIT and OFFSET.');
      const size = `${plural(rows.total, 'row')}${rows.totalExact ? '' : ' or more'}, ${plural(rows.columns.length, 'column')}`;
      return { text: [size, tableText(rows), ...(note ? [note] : [])].join('\n'), preview: tablePreview(rows, rows.total) };
    });
  },
});
