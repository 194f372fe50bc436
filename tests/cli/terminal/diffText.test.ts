import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../../engine/contract/changes.js';
import { patchLines, statLines, totalsLine } from '../../../cli/terminal/diffText.js';

const change = (path: string, added: number, removed: number, extra: Partial<FileChange> = {}): FileChange => ({
  path,
  status: 'modified',
  added,
  removed,
  binary: false,
  before: { kind: 'file', size: 10, mode: 0o644 },
  after: { kind: 'file', size: 12, mode: 0o644 },
  notes: [],
  ...extra,
});
const plain = (lines: ReturnType<typeof statLines>) => lines.map((line) => line.map((piece) => piece.text).join(''));

describe('the --stat view', () => {
  it('scales the bars to the width, as git does, and keeps the counts exact', () => {
    const lines = plain(statLines([change('big.ts', 900, 100), change('small.ts', 1, 1)], 60));
    expect(lines[0]).toMatch(/^ big\.ts +\| 1000 \++-+$/);
    expect(lines[0]!.length).toBeLessThanOrEqual(60);
    expect(lines[1]).toBe(' small.ts | 2 +-'.replace('| 2', '|    2'));
    expect(lines[2]).toBe(' 2 files changed, 901 insertions(+), 101 deletions(-)');
  });

  it('shows renames as old => new, binaries by their sizes, and long names by their end', () => {
    const lines = plain(
      statLines(
        [change('b.txt', 0, 0, { oldPath: 'a.txt', status: 'renamed' }), change('logo.png', 0, 0, { binary: true }), change(`${'deep/'.repeat(30)}file.ts`, 1, 0)],
        80,
      ),
    );
    expect(lines[0]).toMatch(/^ a\.txt => b\.txt +\| {3}0$/);
    expect(lines[1]).toMatch(/^ logo\.png +\| Bin 10 -> 12 bytes$/);
    expect(lines[2]).toMatch(/^ \.\.\..*\/file\.ts \| {3}1 \+$/);
  });

  it('keeps a name with a line feed on its line, the feed shown as its picture', () => {
    const lines = plain(statLines([change('nl\nfake.txt | 999 +++', 1, 0)], 80));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ nl\u240afake\.txt \| 999 \+\+\+ \| 1 \+$/);
  });

  it('words the totals as git does', () => {
    expect(totalsLine([change('a', 1, 0)])).toBe('1 file changed, 1 insertion(+)');
    expect(totalsLine([change('a', 0, 2)])).toBe('1 file changed, 2 deletions(-)');
    expect(totalsLine([change('a', 0, 0)])).toBe('1 file changed, 0 insertions(+)');
    expect(statLines([])).toEqual([]);
  });
});

describe('a patch for the terminal', () => {
  it('colours headers bold, hunk ranges cyan, removals red and additions green', () => {
    const lines = patchLines('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@ fn\n-old\n+new\n same\n');
    expect(lines.map((line) => line.map((piece) => piece.colour ?? '-').join(','))).toEqual(['bold', 'bold', 'bold', 'cyan,-', 'red', 'green', '-']);
  });
});
