import type { TablePreview } from '../../contract/tablePreview.js';
import { cellSeparator } from './tableText.js';

/** The tools whose results hold a table in the compact format of tableText. */
const tableTools = new Set(['table_query', 'table_read_rows', 'table_stats', 'table_describe']);
const previewRows = 8;

/**
 * The first table in a table tool's result, as the activity feed shows it: the header cells and up to
 * eight rows, and how many more the result has. Null for other tools and for failures.
 */
export function tablePreviewOf(tool: string, ok: boolean, result: string): TablePreview | null {
  if (!ok || !tableTools.has(tool)) return null;
  const lines = result.split('\n');
  const start = lines.findIndex((line) => line.includes(cellSeparator));
  if (start === -1) return null;
  const end = lines.findIndex((line, index) => index > start && !line.includes(cellSeparator));
  const body = lines.slice(start + 1, end === -1 ? undefined : end);
  const shown = /\[Showing ([\d,]+) of ([\d,]+) rows/.exec(result);
  const beyond = shown ? Number(shown[2]!.replaceAll(',', '')) - Number(shown[1]!.replaceAll(',', '')) : 0;
  return {
    columns: cells(lines[start]!),
    rows: body.slice(0, previewRows).map(cells),
    more: Math.max(0, body.length - previewRows) + beyond,
  };
}

function cells(line: string): string[] {
  return line.split(cellSeparator).map((cell) => cell.replaceAll('\\|', '|'));
}
