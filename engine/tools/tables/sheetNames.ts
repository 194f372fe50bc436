const maxLength = 31;
const forbidden = /[[\]:*?/\\]/;

/**
 * Why Excel would refuse a sheet name, or null when it takes it. The rules are Excel's own: 1 to 31
 * characters, none of [ ] : * ? / \, no apostrophe at either end, and not "History", which Excel keeps
 * for itself.
 */
export function sheetNameProblem(name: string): string | null {
  if (name.length === 0) return 'a sheet name cannot be empty';
  if (name.length > maxLength) return `Excel allows at most ${maxLength} characters in a sheet name, and this one has ${name.length}`;
  const bad = forbidden.exec(name)?.[0];
  if (bad !== undefined) return `Excel does not allow the characters [ ] : * ? / \\ in sheet names, and this one has "${bad}"`;
  if (name.startsWith("'") || name.endsWith("'")) return 'Excel does not allow a sheet name to begin or end with an apostrophe';
  if (name.toLowerCase() === 'history') return 'Excel keeps the name "History" for itself';
  return null;
}

/** The first broken rule among the names of a workbook, as a sentence, or null when Excel takes them all. */
export function sheetNamesProblem(names: readonly string[]): string | null {
  const seen = new Map<string, string>();
  for (const name of names) {
    const problem = sheetNameProblem(name);
    if (problem) return `sheet name "${name}" is refused: ${problem}.`;
    const earlier = seen.get(name.toLowerCase());
    if (earlier !== undefined) {
      return `sheet name "${name}" is refused: Excel compares sheet names without regard to case, so "${earlier}" and "${name}" are the same name; each sheet needs its own.`;
    }
    seen.set(name.toLowerCase(), name);
  }
  return null;
}
