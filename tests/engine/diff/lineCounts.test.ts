import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLineChanges } from '../../../engine/diff/lineCounts.js';
import { diffLines } from '../../../engine/diff/lineDiff.js';
import { lineWorkSoFar } from '../../../engine/diff/lineWork.js';

const counts = (before: string, after: string) => countLineChanges(Buffer.from(before), Buffer.from(after));
const diffCounts = (before: string, after: string) => {
  const { added, removed, approximate } = diffLines(before, after, { context: 3 });
  return { added, removed, approximate };
};

// Few distinct lines, so texts repeat lines (few anchors) and share starts and ends; CRs, a missing final
// line break and multi-byte characters among them.
const lineArb = fc.constantFrom('a\n', 'b\n', 'a\r\n', 'ä\n', '\n', 'long line of text\n', 'a', 'b', 'ä');
const textArb = fc.array(lineArb, { maxLength: 30 }).map((lines) => lines.join(''));

describe('line counts of a change, from the bytes', () => {
  it('are the line diff’s counts for any two texts', () => {
    fc.assert(
      fc.property(textArb, textArb, (before, after) => {
        expect(counts(before, after)).toEqual(diffCounts(before, after));
      }),
      { numRuns: 2_000 },
    );
  });

  it('are the line diff’s counts for a text and an edit of it', () => {
    const editArb = fc.record({ at: fc.nat(), removed: fc.nat({ max: 5 }), inserted: fc.array(lineArb, { maxLength: 5 }) });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 40 }), fc.array(editArb, { maxLength: 4 }), (lines, edits) => {
        const edited = [...lines];
        for (const { at, removed, inserted } of edits) edited.splice(at % (edited.length + 1), removed, ...inserted);
        expect(counts(lines.join(''), edited.join(''))).toEqual(diffCounts(lines.join(''), edited.join('')));
      }),
      { numRuns: 2_000 },
    );
  });

  it('the edges: equal, empty, one a prefix of the other, the final line break', () => {
    expect(counts('', '')).toEqual({ added: 0, removed: 0, approximate: false });
    expect(counts('a\nb\n', 'a\nb\n')).toEqual({ added: 0, removed: 0, approximate: false });
    expect(counts('', 'a\nb\n')).toEqual({ added: 2, removed: 0, approximate: false });
    expect(counts('a\nb\n', '')).toEqual({ added: 0, removed: 2, approximate: false });
    expect(counts('a\nb', 'a\nb\n')).toEqual({ added: 1, removed: 1, approximate: false });
    expect(counts('a\n', 'a\na\n')).toEqual({ added: 1, removed: 0, approximate: false });
    expect(counts('x\na\n', 'y\na\n')).toEqual({ added: 1, removed: 1, approximate: false });
    expect(counts('ab\n', 'b\n')).toEqual({ added: 1, removed: 1, approximate: false });
  });

  it('a long file with one line changed: only the two versions of that line are numbered and aligned', () => {
    const lines = Array.from({ length: 1_000 }, (_, index) => `line ${index} of a long file\n`);
    const before = lines.join('');
    const after = before.replace('line 500 of', 'line five hundred of');
    const start = lineWorkSoFar().linesNumbered;
    expect(counts(before, after)).toEqual({ added: 1, removed: 1, approximate: false });
    expect(lineWorkSoFar().linesNumbered - start).toBe(2);
  });
});
