/* eslint-disable no-control-regex -- these tests look for control characters on the screen */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeStyled, type StyledLine } from '../../../cli/terminal/diffText.js';
import { markdownLines } from '../../../cli/terminal/markdownText.js';
import { ShownStream } from '../../../cli/terminal/shownStream.js';

/** Each line as text, every styled piece marked `<style>text</>`. */
const marked = (lines: readonly StyledLine[]) => lines.map((line) => line.map((piece) => (piece.colour ? `<${piece.colour}>${piece.text}</>` : piece.text)).join(''));

/** What a terminal receives when the lines are written in colour. */
function onTerminal(lines: readonly StyledLine[]): string {
  let written = '';
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((written += chunk.toString()), done()) });
  writeStyled(new ShownStream(Object.assign(sink, { isTTY: true })), lines, true);
  return written;
}

describe('a summary’s Markdown on the terminal', () => {
  it('shows headings and bold in bold, emphasis in italic, code in cyan, links as their text and address', () => {
    const lines = markdownLines('# Done &amp; dusted\n\nAdded **src/greeting.ts** (*tested*) with `hello()`.\nSee [the docs](https://example.com/docs) or https://example.com.\n', 200);
    expect(marked(lines)).toEqual([
      '<bold>Done & dusted</>',
      '',
      'Added <bold>src/greeting.ts</> (<italic>tested</>) with <cyan>hello()</>.',
      'See the docs<dim> (https://example.com/docs)</> or https://example.com.',
    ]);
  });

  it('lists with bullets and numbers, nested and tasks, quotes behind a bar, code blocks indented, tables in columns', () => {
    const markdown = [
      '- first',
      '- second',
      '  - nested',
      '- [x] checked',
      '',
      '3. three',
      '4. four',
      '',
      '> quoted',
      '',
      '```ts',
      'const a = 1;',
      '  indented();',
      '```',
      '',
      '| file | lines |',
      '|---|--:|',
      '| a.ts | 3 |',
      '| long-name.ts | 120 |',
      '',
      '---',
    ].join('\n');
    expect(marked(markdownLines(markdown, 80))).toEqual([
      '• first',
      '• second',
      '  • nested',
      '• [x] checked',
      '',
      '3. three',
      '4. four',
      '',
      '<dim>│ </>quoted',
      '',
      '<cyan>    const a = 1;</>',
      '<cyan>      indented();</>',
      '',
      '<bold>file         │ lines</>',
      '<dim>─────────────┼──────</>',
      'a.ts         │     3',
      'long-name.ts │   120',
      '',
      `<dim>${'─'.repeat(40)}</>`,
    ]);
  });

  it('wraps paragraphs at spaces to the terminal’s width, list items under their text, styles kept across the cut', () => {
    // 26 columns: lines of at most 25 characters, the item's text in the 23 after its bullet.
    const lines = marked(markdownLines('- one two three **four five six** seven eight nine ten\n', 26));
    expect(lines).toEqual(['• one two three <bold>four five</>', '  <bold>six</> seven eight nine', '  ten']);
    const width = (columns: number) => Math.max(...markdownLines(`${'word '.repeat(60)}\n`, columns).map((line) => line.map((piece) => piece.text).join('').length));
    expect(width(50)).toBe(49);
    // However wide the terminal, lines stay readable.
    expect(width(300)).toBe(99);
  });

  it('shows the control characters of the model’s text, never obeys them: only the CLI’s own styles reach the terminal raw', () => {
    const esc = '\x1b';
    const hostile = `# Title ${esc}]0;owned\x07\n\n**bold ${esc}[2J** and \`code ${esc}[1A\` \u009b31m [link](http://x${esc}[2K) &#27;[5m\n\n\`\`\`\n${esc}]52;c;cHduZWQ=\x07\n\`\`\`\n`;
    const screen = onTerminal(markdownLines(hostile, 100));
    const sequences = new Set(screen.match(/\x1b\[[\d;]*m|\x1b/g));
    expect(sequences.size).toBeGreaterThan(0);
    for (const sequence of sequences) expect(['\x1b[1m', '\x1b[2m', '\x1b[3m', '\x1b[36m', '\x1b[m']).toContain(sequence);
    expect(screen).not.toContain('\u009b');
    expect(screen).not.toContain('\x07');
    expect(screen).toContain('Title ␛]0;owned␇');
    expect(screen).toContain('bold ␛[2J');
    expect(screen).toContain('code ␛[1A');
    expect(screen).toContain('<U+009B>31m');
    // A character reference that decodes to ESC is shown too.
    expect(screen).toContain('␛[5m');
    expect(screen).toContain('␛]52;c;cHduZWQ=␇');
  });

  it('keeps HTML and anything it does not format as text', () => {
    expect(marked(markdownLines('Some <b>html</b> here.\n\n<div>\nblock\n</div>\n', 80))).toEqual(['Some <b>html</b> here.', '', '<div>', 'block', '</div>']);
  });
});
