import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../../../engine/contract/changes.js';
import { diffFiles } from '../../../../engine/diff/index.js';
import { diffRows, type DiffRow } from '../../../../renderer/src/components/changes/diffRows.js';

const text = (content: string) => ({ kind: 'file' as const, mode: 0o644, size: content.length, bytes: Buffer.from(content) });
const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join('');
const diffOf = (before: string, after: string, context = Number.POSITIVE_INFINITY): FileDiff => diffFiles({ path: 'f.txt', before: text(before), after: text(after), context });
const shape = (rows: readonly DiffRow[]) => rows.map((row) => (row.kind === 'fold' ? `fold ${row.count}${row.openable ? '' : ' (closed)'}` : `${row.oldNo ?? '-'} ${row.newNo ?? '-'} ${row.sign}${row.text}`));

describe('a diff as rows to draw', () => {
  it('numbers each line on both sides and folds long unchanged stretches, three lines kept next to a change', () => {
    const rows = diffRows(diffOf(lines(30), lines(30).replace('line 15\n', 'fifteen\n')));
    expect(shape(rows)).toEqual([
      'fold 11',
      '12 12  line 12',
      '13 13  line 13',
      '14 14  line 14',
      '15 - -line 15',
      '- 15 +fifteen',
      '16 16  line 16',
      '17 17  line 17',
      '18 18  line 18',
      'fold 12',
    ]);
  });

  it('opens a fold whose lines it holds', () => {
    const diff = diffOf(lines(30), lines(30).replace('line 15\n', 'fifteen\n'));
    const fold = diffRows(diff).find((row) => row.kind === 'fold');
    const opened = diffRows(diff, new Set([fold?.kind === 'fold' ? fold.id : '']));
    expect(shape(opened).slice(0, 3)).toEqual(['1 1  line 1', '2 2  line 2', '3 3  line 3']);
  });

  it('with three lines of context, the lines between hunks are a fold that cannot open; so are those after the last', () => {
    const diff = diffOf(lines(40), lines(40).replace('line 5\n', 'five\n').replace('line 30\n', 'thirty\n'), 3);
    expect(shape(diffRows(diff)).filter((row) => row.startsWith('fold'))).toEqual(['fold 1 (closed)', 'fold 18 (closed)', 'fold 7 (closed)']);
  });

  it('marks a line without a newline at the end, and CRs only when the line endings changed', () => {
    const noNewline = diffRows(diffOf('a\nb', 'a\nc'));
    expect(noNewline.at(-1)).toMatchObject({ kind: 'line', sign: '+', text: 'c', noNewline: true });
    expect(diffRows(diffOf('a\r\nb\r\n', 'a\r\nc\r\n')).filter((row) => row.kind === 'line' && row.cr)).toEqual([]);
    const converted = diffRows(diffOf('a\nb\n', 'a\r\nb\r\n'));
    expect(converted.filter((row) => row.kind === 'line' && row.cr)).toHaveLength(2);
    expect(converted.every((row) => row.kind !== 'line' || !row.text.endsWith('\r'))).toBe(true);
  });

  it('a new file numbers only its new side', () => {
    const rows = diffRows(diffFiles({ path: 'n.txt', before: null, after: text('x\ny\n'), context: Number.POSITIVE_INFINITY }));
    expect(shape(rows)).toEqual(['- 1 +x', '- 2 +y']);
  });
});
