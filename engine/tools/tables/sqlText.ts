/** A SQL string literal: 'it''s'. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A SQL identifier, always quoted: "Betrag (EUR)", "say ""hi""". */
export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A list literal of strings: ['a', 'b']. */
export function sqlStringList(texts: readonly string[]): string {
  return `[${texts.map(sqlString).join(', ')}]`;
}
