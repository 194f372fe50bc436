import type { TablePreview } from '../../contract/tablePreview.js';
import type { TextTable } from './tableText.js';

const previewRows = 8;

/**
 * The small table the activity feed shows for a table tool's result: the header as the result writes it
 * ("amount (decimal)"), the first eight rows, and how many of the `rowsInAll` the result stands for are
 * left out. Cells read as written: the '\|' the text format escapes a '|' with is undone.
 */
export function tablePreview(table: TextTable, rowsInAll: number = table.rows.length): TablePreview {
  const rows = table.rows.slice(0, previewRows).map((row) => row.map(unescapeCell));
  return {
    columns: table.columns.map(({ name, type }) => {
      const heading = name.replace(/\r?\n/g, ' ');
      return type ? `${heading} (${type})` : heading;
    }),
    rows,
    more: Math.max(0, rowsInAll - rows.length),
  };
}

function unescapeCell(cell: string): string {
  return cell.replaceAll('\\|', '|');
}
