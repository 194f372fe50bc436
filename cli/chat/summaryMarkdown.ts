import { writeStyled, type StyledLine } from '../terminal/diffText.js';
import { markdownLines } from '../terminal/markdownText.js';
import type { ShownStream } from '../terminal/shownStream.js';

/**
 * Beyond these a summary is shown as its plain text: marked's lexer recurses once per level of nesting
 * (thousands of `>` overflow the stack) and is quadratic on long runs of emphasis markers, and a summary
 * is the model's text, so it may be anything.
 */
export const markdownLimits = {
  /** Characters of the whole summary. */
  maxChars: 32 * 1024,
  /** Quote and list markers opening one line (`> > - 1. text`). */
  maxNesting: 100,
  /** Emphasis markers (`*`, `_`, `~`) in one run of inline text: a paragraph, or a list item's or a heading's line with the lines that continue it. */
  maxEmphasisMarkers: 1000,
} as const;

/**
 * A summary's Markdown as terminal lines; null when it is to be shown as the plain text it is: too long,
 * too deeply nested, with too many emphasis markers in a run of text, or refused by the formatter (an
 * error of the formatter never loses the summary).
 */
export function summaryMarkdownLines(summary: string, columns: number, format: (markdown: string, columns: number) => StyledLine[] = markdownLines): StyledLine[] | null {
  if (!formattable(summary)) return null;
  try {
    return format(summary, columns);
  } catch {
    return null;
  }
}

/** Prints a summary formatted as Markdown, or as its plain text where summaryMarkdownLines says so; through the escape neutraliser either way. */
export function printSummaryMarkdown(stream: ShownStream, summary: string, colour: boolean): void {
  const lines = summaryMarkdownLines(summary, stream.columns ?? 80);
  if (lines === null) stream.text(`${summary}\n`);
  else writeStyled(stream, lines, colour);
}

function formattable(summary: string): boolean {
  if (summary.length > markdownLimits.maxChars) return false;
  let markers = 0;
  for (const line of summary.split('\n')) {
    const opening = openingMarkers(line);
    if (opening.count > markdownLimits.maxNesting) return false;
    // A blank line (in a quote too) ends the run of inline text; a list item, heading or table row starts another.
    if (opening.item || /^\s*$|^ {0,3}[#|]/.test(line.slice(opening.end))) markers = 0;
    markers += emphasisMarkers(line);
    if (markers > markdownLimits.maxEmphasisMarkers) return false;
  }
  return true;
}

/**
 * The quote (`>`) and list (`-`, `*`, `+`, `1.`, `1)`) markers that open the line, each nesting a block in
 * the one before: how many, whether one starts a list item, and where the text after them starts.
 */
function openingMarkers(line: string): { count: number; item: boolean; end: number } {
  let count = 0;
  let item = false;
  let at = 0;
  for (;;) {
    while (line[at] === ' ' || line[at] === '\t') at += 1;
    if (line[at] === '>') {
      count += 1;
      at += 1;
      continue;
    }
    const bullet = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t])/.exec(line.slice(at, at + 11));
    if (!bullet) return { count, item, end: at };
    count += 1;
    item = true;
    at += bullet[0].length;
  }
}

function emphasisMarkers(text: string): number {
  let count = 0;
  for (const character of text) if (character === '*' || character === '_' || character === '~') count += 1;
  return count;
}
