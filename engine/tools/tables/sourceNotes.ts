import { rangeName } from './cellRange.js';
import { csvOptions, type CsvDialect } from './csvDialect.js';
import { sqlString } from './sqlText.js';
import { plural } from './tableText.js';
import type { LoadedSheet } from './xlsxTable.js';
import type { SheetScan } from './xlsxStructure.js';

const encodingNames = { 'utf-8': 'UTF-8', 'utf-16': 'UTF-16', 'latin-1': 'Latin-1 (ISO-8859-1; not valid UTF-8)' } as const;

/** What was detected about a CSV file, and how to read it the same way in table_query. */
export function csvNotes(path: string, dialect: CsvDialect): string[] {
  const delimiter = dialect.delimiter === '\t' ? 'tab' : `"${dialect.delimiter}"`;
  const header = dialect.hasHeader
    ? `header on line ${dialect.skipRows + 1}${dialect.skipRows > 0 ? ` (${plural(dialect.skipRows, 'line')} above it skipped)` : ''}`
    : `no header row${dialect.skipRows > 0 ? ` (${plural(dialect.skipRows, 'line')} skipped)` : ''}: columns are named column0, column1, …`;
  const parts = [`delimiter ${delimiter}`, header, `encoding ${encodingNames[dialect.encoding.encoding]}${dialect.encoding.bom ? ' with byte-order mark' : ''}`];
  if (dialect.decimalCommaColumns.length > 0) parts.push(`decimal comma in ${dialect.decimalCommaColumns.map((name) => `"${name}"`).join(', ')} (read as numbers)`);
  if (dialect.dateFormat) parts.push(`dates written ${dialect.dateFormat}`);
  if (dialect.timestampFormat) parts.push(`timestamps written ${dialect.timestampFormat}`);
  const explicit = `read_csv(${sqlString(path)}, ${csvOptions(dialect)})`;
  const lines = [`Detected: ${parts.join('; ')}.`, `In table_query, FROM ${sqlString(path)} reads it this way; explicitly: ${explicit}`];
  if (dialect.decimalCommaColumns.length > 0) {
    lines.push('(read_csv gives the decimal-comma columns as text; FROM the quoted path gives them as numbers.)');
  }
  return lines;
}

/** What a sheet looks like beyond its table: the other sheets, the used range, titles, merged cells, formulas. */
export function sheetNotes(path: string, loaded: LoadedSheet, scan: SheetScan): string[] {
  const { sheet, sheets } = loaded;
  const others = sheets.map((each) => `"${each.name}"${each.hidden ? ' (hidden)' : ''}`).join(', ');
  const lines = [`Sheet "${sheet.name}" (${sheets.length === 1 ? 'the only sheet' : `sheets: ${others}`}).`];
  const used = scan.used ?? scan.declared;
  if (used) lines.push(`Used range ${rangeName(used)}${scan.declared && scan.used && rangeName(scan.declared) !== rangeName(scan.used) ? ` (the sheet declares ${rangeName(scan.declared)})` : ''}.`);
  lines.push(loaded.headerRow === null ? 'No header row found: columns are named by their letters (A, B, …).' : `Header in row ${loaded.headerRow}.`);
  for (const title of loaded.titleRows) lines.push(`Above the table, row ${title.row}: "${title.text.slice(0, 120)}"${mergedAt(scan, title.row)}.`);
  if (loaded.totalsRows.length > 0) {
    const one = loaded.totalsRows.length === 1;
    lines.push(`Left out of the table: ${one ? 'row' : 'rows'} ${loaded.totalsRows.join(', ')} at the bottom, which ${one ? 'sums' : 'sum'} up the rows above (totals); read ${one ? 'it' : 'them'} with read_xlsx(…, range = '…').`);
  }
  if (scan.merges.length > 0) {
    const shown = scan.merges.slice(0, 8).map(rangeName).join(', ');
    const headerMerges = loaded.headerRow === null ? [] : scan.merges.filter((range) => range.firstRow <= loaded.headerRow! && range.lastRow >= loaded.headerRow!);
    lines.push(`Merged cells: ${plural(scan.merges.length, 'range')} (${shown}${scan.merges.length > 8 ? ', …' : ''})${headerMerges.length ? `; ${plural(headerMerges.length, 'range')} in the header row, whose names may span columns` : ''}.`);
  }
  if (scan.formulaCount > 0) {
    const examples = scan.formulaExamples.map(({ cell, formula }) => `${cell}: =${formula}`).join('; ');
    lines.push(`Formulas: ${plural(scan.formulaCount, 'cell')} (${examples}). Values shown are the results Excel last saved.`);
  }
  if (scan.frozen) lines.push(`Frozen panes: ${plural(scan.frozen.rows, 'row')}, ${plural(scan.frozen.columns, 'column')}.`);
  if (loaded.emptyRowsSkipped > 0) lines.push(`${plural(loaded.emptyRowsSkipped, 'empty row')} inside the table skipped.`);
  if (loaded.errorCells > 0) lines.push(`${plural(loaded.errorCells, 'cell')} hold an Excel error (#DIV/0!, #N/A…) and read as NULL.`);
  const reference = sheets.length > 1 ? `read_xlsx(${sqlString(path)}, sheet = ${sqlString(sheet.name)})` : sqlString(path);
  lines.push(`In table_query: FROM ${reference}.`);
  return lines;
}

function mergedAt(scan: SheetScan, row: number): string {
  const merged = scan.merges.find((range) => range.firstRow <= row && range.lastRow >= row);
  return merged ? ` (merged ${rangeName(merged)})` : '';
}
