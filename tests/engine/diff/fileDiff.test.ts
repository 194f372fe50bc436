import { spawnSync } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../../engine/contract/changes.js';
import { describeFileChange } from '../../../engine/contract/changes.js';
import { diffFiles, gitPatch, type DiffSide } from '../../../engine/diff/index.js';
import { useTempFolders } from '../../support/tempFolder.js';

const file = (content: string | Uint8Array, mode = 0o644): DiffSide => {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return { kind: 'file', mode, size: bytes.length, bytes };
};
const link = (target: string): DiffSide => ({ kind: 'symlink', target });
const diff = (before: DiffSide | null, after: DiffSide | null, context = 3, oldPath?: string): FileDiff =>
  diffFiles({ path: 'f.txt', ...(oldPath ? { oldPath } : {}), before, after, context });

const numbered = (count: number, from = 1) => Array.from({ length: count }, (_, index) => `line ${index + from}\n`).join('');

describe('the diff of one file', () => {
  it('text: counts, hunks with three lines of context, and a patch that applies', () => {
    const before = numbered(20);
    const after = before.replace('line 5\n', 'line five\n').replace('line 18\n', '');
    const change = diff(file(before), file(after));
    expect(change).toMatchObject({ status: 'modified', added: 1, removed: 2, binary: false, approximate: false, wholeFile: false });
    expect(change.hunks.map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines])).toEqual([
      [2, 7, 2, 7],
      [15, 6, 15, 5],
    ]);
    expect(change.hunks[0]!.lines).toEqual([' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8']);
    expect(applyPatch(before, gitPatch(change))).toBe(after);
    expect(change.before).toMatchObject({ kind: 'file', lines: 20, eol: 'lf', mode: 0o644 });
  });

  it('keeps every line when asked (Infinity), so the app can open each fold', () => {
    const change = diff(file(numbered(30)), file(numbered(30).replace('line 15', 'fifteen')), Number.POSITIVE_INFINITY);
    expect(change.wholeFile).toBe(true);
    expect(change.hunks).toHaveLength(1);
    expect(change.hunks[0]!.lines).toHaveLength(31);
  });

  it('CRLF: lines keep their CR, a change inside a CRLF file is one line, and a switch of line endings says so', () => {
    const crlf = 'one\r\ntwo\r\nthree\r\n';
    const edited = diff(file(crlf), file(crlf.replace('two', 'TWO')));
    expect(edited).toMatchObject({ added: 1, removed: 1, notes: [] });
    expect(edited.hunks[0]!.lines).toEqual([' one\r', '-two\r', '+TWO\r', ' three\r']);
    expect(applyPatch(crlf, gitPatch(edited))).toBe(crlf.replace('two', 'TWO'));

    const converted = diff(file('one\ntwo\n'), file('one\r\ntwo\r\n'));
    expect(converted).toMatchObject({ added: 2, removed: 2, notes: ['line endings LF → CRLF'] });
    expect(converted.after).toMatchObject({ eol: 'crlf' });
    expect(diff(file('a\r\nb\n'), file('a\r\nc\n')).before?.eol).toBe('mixed');
  });

  it('no newline at end of file: marked after the line, and adding one is a change of that line', () => {
    const added = diff(file('a\nb'), file('a\nb\n'));
    expect(added).toMatchObject({ added: 1, removed: 1 });
    expect(added.hunks[0]!.lines).toEqual([' a', '-b', '\\ No newline at end of file', '+b']);
    expect(applyPatch('a\nb', gitPatch(added))).toBe('a\nb\n');
    const appended = diff(file('a\n'), file('a\nb'));
    expect(appended.hunks[0]!.lines).toEqual([' a', '+b', '\\ No newline at end of file']);
  });

  it('a new file and a deleted one', () => {
    const created = diff(null, file('x\ny\n'));
    expect(created).toMatchObject({ status: 'added', added: 2, removed: 0, before: null });
    expect(describeFileChange(created)).toBe('new file, 2 lines');
    expect(gitPatch(created)).toBe('diff --git a/f.txt b/f.txt\nnew file mode 100644\n--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n');
    const deleted = diff(file('x\ny\nz\n', 0o755), null);
    expect(deleted).toMatchObject({ status: 'deleted', added: 0, removed: 3, after: null });
    expect(describeFileChange(deleted)).toBe('deletes 3 lines');
    expect(gitPatch(deleted)).toContain('deleted file mode 100755\n--- a/f.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n');
  });

  it('binary: a NUL byte or a known signature makes it a change of sizes, in words and as git prints it', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const change = diff(file(png), file(Buffer.concat([png, Buffer.alloc(2000)])));
    expect(change).toMatchObject({ binary: true, added: 0, removed: 0, hunks: [] });
    expect(change.before).toMatchObject({ notText: 'PNG image', size: 11 });
    expect(describeFileChange(change)).toBe('PNG image, 11 B → 2.0 KB');
    expect(gitPatch(change)).toBe('diff --git a/f.txt b/f.txt\nBinary files a/f.txt and b/f.txt differ\n');
    expect(diff(null, file(Buffer.from('a\0b'))).after).toMatchObject({ notText: 'binary data' });
    expect(describeFileChange(diff(null, file(Buffer.from('a\0b'))))).toBe('new binary data, 3 B');
  });

  it('text that is not UTF-8 is compared by size; a byte order mark counts', () => {
    expect(diff(file(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])), file('café\n')).before).toMatchObject({ notText: 'not UTF-8 text' });
    const bom = diff(file('x\n'), file('\ufeffx\n'));
    expect(bom).toMatchObject({ added: 1, removed: 1 });
  });

  it('rename: old path kept, status renamed, git rename headers', () => {
    const change = diff(file('same\n'), file('same\n'), 3, 'old/name.txt');
    expect(change).toMatchObject({ status: 'renamed', oldPath: 'old/name.txt', added: 0, removed: 0 });
    expect(describeFileChange(change)).toBe('renames old/name.txt → f.txt');
    expect(gitPatch(change)).toBe('diff --git a/old/name.txt b/f.txt\nrename from old/name.txt\nrename to f.txt\n');
  });

  it('mode change: a note, and old/new mode in the patch', () => {
    const change = diff(file('#!/bin/sh\n'), file('#!/bin/sh\n', 0o755));
    expect(change).toMatchObject({ added: 0, removed: 0, notes: ['mode 644 → 755'], hunks: [] });
    expect(gitPatch(change)).toBe('diff --git a/f.txt b/f.txt\nold mode 100644\nnew mode 100755\n');
  });

  it('symlink: compared by its target, mode 120000, no newline at the end; a file becoming a link is two patches', () => {
    const retarget = diff(link('a.txt'), link('b.txt'));
    expect(retarget).toMatchObject({ added: 1, removed: 1 });
    expect(retarget.after).toMatchObject({ kind: 'symlink', target: 'b.txt' });
    expect(gitPatch(diff(null, link('a.txt')))).toBe(
      'diff --git a/f.txt b/f.txt\nnew file mode 120000\n--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n',
    );
    const typeChange = diff(file('text\n'), link('a.txt'), Number.POSITIVE_INFINITY);
    expect(typeChange.notes).toEqual(['a file became a symlink']);
    const patch = gitPatch(typeChange);
    expect(patch.match(/^diff --git/gm)).toHaveLength(2);
    expect(patch).toContain('deleted file mode 100644\n--- a/f.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-text\n');
    expect(patch).toContain('new file mode 120000\n--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n');
  });

  it('a file too different to align in bounded work is shown replaced whole, and still applies', () => {
    const before = numbered(120_000);
    const after = numbered(120_000, 1_000_000);
    const change = diff(file(before), file(after));
    expect(change).toMatchObject({ approximate: true, added: 120_000, removed: 120_000 });
    expect(applyPatch(before, gitPatch(change))).toBe(after);
  });

  it('a file of 100,000 lines with a change every 100 lines is aligned exactly', () => {
    const before = numbered(100_000);
    const after = before.replace(/^line (\d*50)$/gm, 'changed $1');
    const change = diff(file(before), file(after));
    expect(change).toMatchObject({ approximate: false, added: 1_000, removed: 1_000 });
  });
});

describe('patches against git', () => {
  const tempFolder = useTempFolders('rpi-diff-git-');
  const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).stdout;
  /** git's output without what we do not print: `index` lines and the function name after a hunk header. */
  const comparable = (patch: string) => patch.replace(/^index .*\n/gm, '').replace(/^(@@ [^@]+ @@).*$/gm, '$1');

  it.each([
    ['a changed line and an added last line without newline', 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n', 'a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk'],
    ['CRLF lines', 'one\r\ntwo\r\n', 'one\r\n2\r\n'],
    ['a file emptied', 'x\ny\n', ''],
    ['lines moved', numbered(12), numbered(12).replace('line 2\n', '').replace('line 11\n', 'line 11\nline 2\n')],
  ])('%s: the same text git diff prints', async (_name, before, after) => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'old'), before);
    await writeFile(path.join(root, 'new'), after);
    const ours = gitPatch(diffFiles({ path: 'new', oldPath: 'old', before: file(before), after: file(after), context: 3 })).replace(
      'rename from old\nrename to new\n',
      '',
    );
    expect(ours).toBe(comparable(git(root, 'diff', '--no-index', '--no-color', 'old', 'new')));
  });

  it('a mode change and a symlink, as git diff shows them between two trees', async () => {
    const root = await tempFolder();
    await mkdir(path.join(root, 'a'));
    await mkdir(path.join(root, 'b'));
    await writeFile(path.join(root, 'a', 'run.sh'), 'echo hi\n');
    await writeFile(path.join(root, 'b', 'run.sh'), 'echo hi\n');
    await chmod(path.join(root, 'b', 'run.sh'), 0o755);
    await symlink('run.sh', path.join(root, 'b', 'link'));
    const theirs = comparable(git(root, 'diff', '--no-index', '--no-color', 'a', 'b')).replace(/\b([ab])\/[ab]\//g, '$1/');
    const ours = [
      gitPatch(diffFiles({ path: 'link', before: null, after: link('run.sh'), context: 3 })),
      gitPatch(diffFiles({ path: 'run.sh', before: file('echo hi\n'), after: file('echo hi\n', 0o755), context: 3 })),
    ].join('');
    expect(ours).toBe(theirs);
  });
});
