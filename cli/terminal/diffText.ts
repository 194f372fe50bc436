import { describeTotals, totalsOf, type FileChange } from '../../engine/contract/changes.js';
import { ownSequences, type ShownStream } from './shownStream.js';
import { visibleLine } from './visibleText.js';

/** How a piece of text is styled on a terminal: a diff's colours, and the styles of formatted Markdown. */
export type Colour = 'bold' | 'dim' | 'italic' | 'red' | 'green' | 'cyan';

/** A line of output in pieces, some of them coloured on a terminal. */
export type StyledLine = readonly { text: string; colour?: Colour }[];

/** A git-style patch, line by line, coloured as git colours it: headers bold, hunk ranges cyan, removals red, additions green. */
export function patchLines(patch: string): StyledLine[] {
  const lines = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n');
  let inHeader = false;
  return lines.map((line) => {
    if (line.startsWith('diff --git ')) inHeader = true;
    else if (line.startsWith('@@')) inHeader = false;
    if (inHeader) return [{ text: line, colour: 'bold' }];
    if (line.startsWith('@@')) {
      const end = line.indexOf(' @@', 2);
      return end === -1 ? [{ text: line, colour: 'cyan' }] : [{ text: line.slice(0, end + 3), colour: 'cyan' }, { text: line.slice(end + 3) }];
    }
    if (line.startsWith('+')) return [{ text: line, colour: 'green' }];
    if (line.startsWith('-')) return [{ text: line, colour: 'red' }];
    return [{ text: line }];
  });
}

/**
 * git's `--stat`: a line per file with its count of changed lines and a bar of + and − scaled to fit
 * `columns`, "Bin 11 -> 2048 bytes" for files not compared line by line, then the totals.
 */
export function statLines(files: readonly FileChange[], columns = 80): StyledLine[] {
  if (files.length === 0) return [];
  // A name's line feed would start a forged line of the stat: every control is shown as its picture (␊).
  const names = files.map((file) => visibleLine(file.oldPath === undefined ? file.path : `${file.oldPath} => ${file.path}`));
  const counts = files.map((file) => (file.binary ? '' : String(file.added + file.removed)));
  const countWidth = Math.max(1, ...counts.map((count) => count.length), files.some((file) => file.binary) ? 3 : 0);
  const nameWidth = Math.min(Math.max(...names.map((name) => name.length)), Math.max(10, Math.floor(columns * 0.6)));
  const barWidth = Math.max(6, columns - nameWidth - countWidth - 6);
  const largest = Math.max(0, ...files.map((file) => file.added + file.removed));
  // git's scale_linear: each side on its own, a non-zero count never drawn as nothing.
  const scale = (lines: number) => (largest <= barWidth || lines === 0 ? lines : 1 + Math.floor((lines * (barWidth - 1)) / largest));
  const lines: StyledLine[] = files.map((file, index) => {
    const name = fitName(names[index] ?? '', nameWidth).padEnd(nameWidth);
    if (file.binary) return [{ text: ` ${name} | Bin ${file.before?.size ?? 0} -> ${file.after?.size ?? 0} bytes` }];
    const [plus, minus] = [scale(file.added), scale(file.removed)];
    const bar: { text: string; colour?: Colour }[] = [];
    if (plus > 0) bar.push({ text: '+'.repeat(plus), colour: 'green' });
    if (minus > 0) bar.push({ text: '-'.repeat(minus), colour: 'red' });
    return [{ text: ` ${name} | ${(counts[index] ?? '').padStart(countWidth)}${bar.length > 0 ? ' ' : ''}` }, ...bar];
  });
  return [...lines, [{ text: ` ${totalsLine(files)}` }]];
}

/** "3 files changed, 10 insertions(+), 2 deletions(-)", as git words it (a zero count is left out). */
export function totalsLine(files: readonly FileChange[]): string {
  const totals = totalsOf(files);
  if (totals.files === 0) return describeTotals(totals);
  const parts = [`${totals.files} ${totals.files === 1 ? 'file' : 'files'} changed`];
  if (totals.added > 0 || totals.removed === 0) parts.push(`${totals.added} ${totals.added === 1 ? 'insertion' : 'insertions'}(+)`);
  if (totals.removed > 0) parts.push(`${totals.removed} ${totals.removed === 1 ? 'deletion' : 'deletions'}(-)`);
  return parts.join(', ');
}

/** A name too long for its column keeps its end, as git shows it: ".../deep/file.ts". */
function fitName(name: string, width: number): string {
  return name.length <= width ? name : `...${name.slice(name.length - width + 3)}`;
}

const linesPerWrite = 2_000;

/** Writes lines to a stream, coloured when asked; the text always goes out visible (ShownStream), in few large writes. */
export function writeStyled(stream: ShownStream, lines: readonly StyledLine[], colour: boolean): void {
  for (let start = 0; start < lines.length; start += linesPerWrite) {
    const pieces: (string | { sequence: (typeof ownSequences)[Colour | 'plain'] })[] = [];
    for (const line of lines.slice(start, start + linesPerWrite)) {
      for (const piece of line) {
        if (colour && piece.colour) pieces.push({ sequence: ownSequences[piece.colour] }, piece.text, { sequence: ownSequences.plain });
        else pieces.push(piece.text);
      }
      pieces.push('\n');
    }
    stream.styled(pieces);
  }
}

/** Colour on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function wantsColour(stream: ShownStream, env: Readonly<Record<string, string | undefined>>): boolean {
  return stream.isTTY && !env['NO_COLOR'];
}
