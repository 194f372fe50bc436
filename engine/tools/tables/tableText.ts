/** A small table ready to print: column names with their type words, and the cells as text. */
export interface TextTable {
  columns: readonly { name: string; type?: string }[];
  rows: readonly (readonly string[])[];
}

/** The separator between cells; a '|' inside a cell is written '\|', so splitting on this is safe. */
export const cellSeparator = ' | ';

/**
 * The compact table format of every table tool: one header line "name (type) | …", then one line per
 * row. No padding: models read it as well, for far fewer tokens.
 */
export function tableText({ columns, rows }: TextTable): string {
  const header = columns.map(({ name, type }) => (type ? `${escapeName(name)} (${type})` : escapeName(name))).join(cellSeparator);
  return [header, ...rows.map((row) => row.join(cellSeparator))].join('\n');
}

function escapeName(name: string): string {
  return name.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** "1,234,567" */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** "3 rows", "1 row" */
export function plural(value: number, word: string, many = `${word}s`): string {
  return `${count(value)} ${value === 1 ? word : many}`;
}
