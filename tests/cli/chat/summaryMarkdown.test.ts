import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { markdownLimits, printSummaryMarkdown, summaryMarkdownLines } from '../../../cli/chat/summaryMarkdown.js';
import { ShownStream } from '../../../cli/terminal/shownStream.js';

/** What a terminal receives when the summary is printed in colour. */
function printed(summary: string): string {
  let written = '';
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((written += chunk.toString()), done()) });
  printSummaryMarkdown(new ShownStream(Object.assign(sink, { isTTY: true, columns: 80 })), summary, true);
  return written;
}

describe('the chat’s summary on a terminal: Markdown formatted, or its plain text when it cannot be', () => {
  it('formats an ordinary summary', () => {
    expect(printed('## Done\n\nWrote **a.txt**.')).toBe('\x1b[1mDone\x1b[m\n\nWrote \x1b[1ma.txt\x1b[m.\n');
  });

  it('prints 6,000 nested quotes as they are: marked overflows the stack on them', () => {
    const summary = `${'>'.repeat(6000)} x`;
    expect(summaryMarkdownLines(summary, 80)).toBeNull();
    expect(printed(summary)).toBe(`${summary}\n`);
  });

  it('prints a long run of emphasis markers (marked is quadratic on them) and anything over 32 KB as they are', () => {
    const emphasis = '_a'.repeat(80_000);
    expect(summaryMarkdownLines(emphasis, 80)).toBeNull();
    expect(printed(emphasis)).toBe(`${emphasis}\n`);
    // Within the size, too many markers in one paragraph are refused as well; a list of many short items is not.
    expect(summaryMarkdownLines('*a '.repeat(markdownLimits.maxEmphasisMarkers + 1), 80)).toBeNull();
    expect(summaryMarkdownLines(Array.from({ length: 300 }, (_, index) => `- **file${index}.ts**: _changed_`).join('\n'), 80)).toHaveLength(300);
    const long = `${'word '.repeat(markdownLimits.maxChars / 5)}**bold**`;
    expect(printed(long)).toBe(`${long}\n`);
  });

  it('prints quotes and lists nested deeper than the limit as they are, and nesting within it formatted', () => {
    expect(summaryMarkdownLines(`${'- '.repeat(markdownLimits.maxNesting + 1)}x`, 80)).toBeNull();
    expect(summaryMarkdownLines(`${'> '.repeat(markdownLimits.maxNesting + 1)}x`, 80)).toBeNull();
    expect(summaryMarkdownLines(`${'> '.repeat(3)}x`, 80)).toEqual([[{ text: '│ ', colour: 'dim' }, { text: '│ ', colour: 'dim' }, { text: '│ ', colour: 'dim' }, { text: 'x' }]]);
  });

  it('falls back to the plain text when the formatter throws', () => {
    const overflow = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    expect(summaryMarkdownLines('# Title', 80, overflow)).toBeNull();
  });
});
