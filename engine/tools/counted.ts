/** "1 file", "1,234 files": a count with its noun, numbers grouped as the model reads them elsewhere. */
export function counted(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
