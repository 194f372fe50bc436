import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchFiles, searchFilesTool } from '../../../engine/tools/searchFiles.js';
import { ToolError } from '../../../engine/tools/tool.js';
import { PathRefusedError } from '../../../engine/workspace/pathRules.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

/** The `path:line: text` lines of a result, without its header and notes. */
function matchLines(result: string): string[] {
  return result.split('\n').filter((line) => /^[^\s(][^:]*:\d+: /.test(line));
}

/** Counts setInterval ticks while `work` runs: the proof that the main thread stayed free. */
async function countingTicks<T>(work: (ticks: () => number) => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 5);
  try {
    const [outcome] = await Promise.allSettled([work(() => ticks)]);
    return { outcome: outcome!, ticks };
  } finally {
    clearInterval(timer);
  }
}

/** A line on which `(a+)+$` backtracks for ever: a long run of a's that does not end the line. */
const catastrophicLine = `${'a'.repeat(40)}b\n`;

describe('search_files', () => {
  const tempFolder = useTempFolders('rpi-search-');

  it('lists matching lines as path:line: text in walk order, with a count', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      'src/app.ts': 'import { load } from "./load";\n\nconst config = load();\nexport default config;\n',
      'src/load.ts': 'export function load() {\r\n  return { config: true };\r\n}\r\n',
      'README.md': 'Call load() to read the config.\n',
      'notes.txt': 'nothing here\n',
    });
    const result = await runTool(searchFiles, { pattern: 'load\\(' }, await toolContextFor(root));
    expect(result).toBe(
      [
        '3 matching lines in 3 files:',
        'README.md:1: Call load() to read the config.',
        'src/app.ts:3: const config = load();',
        'src/load.ts:1: export function load() {',
      ].join('\n'),
    );
  });

  it('lists a line once however many matches it has, and a match spanning lines at its first line', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'x x x\ny\nstart\nend\n' });
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: 'x' }, context))).toEqual(['a.txt:1: x x x']);
    expect(matchLines(await runTool(searchFiles, { pattern: 'start\\nend' }, context))).toEqual(['a.txt:3: start']);
    expect(matchLines(await runTool(searchFiles, { pattern: '^' }, context))).toEqual(['a.txt:1: x x x', 'a.txt:2: y', 'a.txt:3: start', 'a.txt:4: end']);
  });

  it('says so clearly when nothing matches', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const result = await runTool(searchFiles, { pattern: 'gamma' }, await toolContextFor(root));
    expect(result).toBe('No matches for /gamma/ in 2 files in the project folder (files ignored by .gitignore are not searched).');
  });

  it('honours .gitignore files at every level', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      '.gitignore': 'build/\n*.log\n',
      'keep.ts': 'needle\n',
      'debug.log': 'needle\n',
      'build/out.js': 'needle\n',
      'src/.gitignore': 'generated/\n!important.log\n',
      'src/generated/schema.ts': 'needle\n',
      'src/important.log': 'needle\n',
      'src/lib/code.ts': 'needle\n',
    });
    const result = await runTool(searchFiles, { pattern: 'needle' }, await toolContextFor(root));
    expect(matchLines(result)).toEqual(['keep.ts:1: needle', 'src/important.log:1: needle', 'src/lib/code.ts:1: needle']);
  });

  it('searches a folder .gitignore ignores when asked for it by name', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': 'vendor/\n', 'a.ts': 'needle\n', 'vendor/lib/b.ts': 'needle\n' });
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle' }, context))).toEqual(['a.ts:1: needle']);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle', path: 'vendor' }, context))).toEqual(['vendor/lib/b.ts:1: needle']);
  });

  it('never searches .git/ or .workbench/, and refuses them as a path', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.git/config': 'needle\n', '.workbench/log.jsonl': 'needle\n', 'src/.git/HEAD': 'needle\n', 'a.txt': 'needle\n' });
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle' }, context))).toEqual(['a.txt:1: needle']);
    await expect(runTool(searchFiles, { pattern: 'needle', path: '.git' }, context)).rejects.toThrow(PathRefusedError);
    await expect(runTool(searchFiles, { pattern: 'needle', path: '.workbench/log.jsonl' }, context)).rejects.toThrow('never searched');
  });

  it('skips binary files and says how many', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'needle\n' });
    await writeFile(path.join(root, 'image.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), Buffer.from('needle\n')]));
    const context = await toolContextFor(root);
    const result = await runTool(searchFiles, { pattern: 'needle' }, context);
    expect(matchLines(result)).toEqual(['a.txt:1: needle']);
    expect(result).toContain('(1 binary file skipped.)');
    await expect(runTool(searchFiles, { pattern: 'needle', path: 'image.png' }, context)).rejects.toThrow('image.png is a binary file');
  });

  it('filters by a glob on the file name, or on the path inside the searched folder when it has a slash', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      'a.ts': 'needle\n',
      'a.js': 'needle\n',
      'src/b.ts': 'needle\n',
      'src/b.test.ts': 'needle\n',
      'src/deep/c.test.ts': 'needle\n',
      'src/deep/c.tsx': 'needle\n',
    });
    const context = await toolContextFor(root);
    const search = async (args: Record<string, unknown>) => matchLines(await runTool(searchFiles, { pattern: 'needle', ...args }, context));
    expect(await search({ glob: '*.ts' })).toEqual(['a.ts:1: needle', 'src/b.test.ts:1: needle', 'src/b.ts:1: needle', 'src/deep/c.test.ts:1: needle']);
    expect(await search({ glob: '*.{js,tsx}' })).toEqual(['a.js:1: needle', 'src/deep/c.tsx:1: needle']);
    expect(await search({ glob: 'src/**/*.test.ts' })).toEqual(['src/b.test.ts:1: needle', 'src/deep/c.test.ts:1: needle']);
    expect(await search({ glob: 'deep/*', path: 'src' })).toEqual(['src/deep/c.test.ts:1: needle', 'src/deep/c.tsx:1: needle']);
    expect(await runTool(searchFiles, { pattern: 'needle', glob: '*.py' }, context)).toBe(
      'No files in the project folder match the glob "*.py" (files ignored by .gitignore are not searched).',
    );
  });

  it('searches a subfolder, or a single file, and names paths from the project folder', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'top.txt': 'needle\n', 'src/a.txt': 'needle\n', 'src/sub/b.txt': 'x\nneedle\n' });
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle', path: 'src' }, context))).toEqual(['src/a.txt:1: needle', 'src/sub/b.txt:2: needle']);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle', path: './src/sub/' }, context))).toEqual(['src/sub/b.txt:2: needle']);
    expect(await runTool(searchFiles, { pattern: 'needle', path: 'src/sub/b.txt' }, context)).toBe('1 matching line in 1 file:\nsrc/sub/b.txt:2: needle');
    expect(await runTool(searchFiles, { pattern: 'other', path: 'top.txt' }, context)).toBe('No matches for /other/ in top.txt.');
    await expect(runTool(searchFiles, { pattern: 'needle', path: 'missing' }, context)).rejects.toThrow('missing does not exist');
  });

  it('stops at max_results, says there are more and how to narrow the search', async () => {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'hit\nhit\nmiss\n'])));
    const tool = searchFilesTool({ workers: 2, batchSize: 1 });
    const result = await runTool(tool, { pattern: 'hit', max_results: 5 }, await toolContextFor(root));
    expect(result).toBe(
      [
        'First 5 matching lines in 3 files (there are more):',
        'f00.txt:1: hit',
        'f00.txt:2: hit',
        'f01.txt:1: hit',
        'f01.txt:2: hit',
        'f02.txt:1: hit',
        'Stopped at max_results = 5; more lines match. Narrow the search with a more specific pattern, a path or a glob, or raise max_results (at most 1000).',
      ].join('\n'),
    );
    const exact = await runTool(tool, { pattern: 'hit', path: 'f00.txt', max_results: 2 }, await toolContextFor(root));
    expect(exact).toBe('2 matching lines in 1 file:\nf00.txt:1: hit\nf00.txt:2: hit');
  });

  it('returns matches in file order whichever worker finishes first', async () => {
    const root = await tempFolder();
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`d${i % 3}/f${String(i).padStart(2, '0')}.txt`, `${'filler\n'.repeat(i * 50)}hit ${i}\n`]));
    await writeTree(root, files);
    const result = await runTool(searchFilesTool({ workers: 3, batchSize: 2 }), { pattern: 'hit \\d+', max_results: 1000 }, await toolContextFor(root));
    const expected = Object.keys(files)
      .sort()
      .map((file) => `${file}:${Number(/f(\d+)/.exec(file)![1]) * 50 + 1}: hit ${Number(/f(\d+)/.exec(file)![1])}`);
    expect(matchLines(result)).toEqual(expected);
  });

  it('turns an invalid regex into an error in plain words', async () => {
    const root = await tempFolder();
    const context = await toolContextFor(root);
    const failure = runTool(searchFiles, { pattern: 'load(' }, context);
    await expect(failure).rejects.toThrow(ToolError);
    await expect(failure).rejects.toThrow('The pattern "load(" is not a valid regular expression: unterminated group.');
    await expect(runTool(searchFiles, { pattern: '*.ts' }, context)).rejects.toThrow('nothing to repeat');
  });

  it('takes a leading (?i) as ignore-case, and accepts loose escapes', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'TODO: one\ntodo: two\nToDo-three\n' });
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: '(?i)todo' }, context))).toEqual(['a.txt:1: TODO: one', 'a.txt:2: todo: two', 'a.txt:3: ToDo-three']);
    expect(matchLines(await runTool(searchFiles, { pattern: 'todo' }, context))).toEqual(['a.txt:2: todo: two']);
    expect(matchLines(await runTool(searchFiles, { pattern: 'ToDo\\-\\w+' }, context))).toEqual(['a.txt:3: ToDo-three']);
  });

  it('cuts long lines around the match', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'min.js': `${'a'.repeat(1000)}NEEDLE${'b'.repeat(1000)}\n` });
    const [line] = matchLines(await runTool(searchFiles, { pattern: 'NEEDLE' }, await toolContextFor(root)));
    expect(line).toMatch(/^min\.js:1: …a+NEEDLEb+…$/);
    expect(line!.length).toBeLessThan(320);
  });

  it('reads large files in pieces without losing line numbers', async () => {
    const root = await tempFolder();
    const lines = Array.from({ length: 5000 }, (_, i) => (i % 1000 === 999 ? `hit ${i + 1}` : `line ${i + 1}`));
    await writeTree(root, { 'big.txt': `${lines.join('\n')}\n` });
    const result = await runTool(searchFilesTool({ chunkBytes: 4096 }), { pattern: '^hit' }, await toolContextFor(root));
    expect(matchLines(result)).toEqual([1000, 2000, 3000, 4000, 5000].map((n) => `big.txt:${n}: hit ${n}`));
  });

  it('refuses paths that lead outside the project folder', async () => {
    const base = await tempFolder();
    await writeTree(base, { 'outside/secret.txt': 'needle\n', 'proj/a.txt': 'x\n' });
    const context = await toolContextFor(path.join(base, 'proj'));
    await expect(runTool(searchFiles, { pattern: 'needle', path: '../outside' }, context)).rejects.toThrow(PathRefusedError);
    await expect(runTool(searchFiles, { pattern: 'needle', path: path.join(base, 'outside') }, context)).rejects.toThrow('absolute paths are not allowed');
  });

  it('does not follow symlinks that lead outside, in the walk or as the path', async () => {
    const base = await tempFolder();
    await writeTree(base, { 'outside/secret.txt': 'needle\n', 'proj/a.txt': 'needle\n' });
    const root = path.join(base, 'proj');
    await symlink(path.join(base, 'outside'), path.join(root, 'dir-link'));
    await symlink(path.join(base, 'outside', 'secret.txt'), path.join(root, 'file-link.txt'));
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle' }, context))).toEqual(['a.txt:1: needle']);
    await expect(runTool(searchFiles, { pattern: 'needle', path: 'dir-link' }, context)).rejects.toThrow(/symlink that leads outside/);
    await expect(runTool(searchFiles, { pattern: 'needle', path: 'file-link.txt' }, context)).rejects.toThrow(/symlink that leads outside/);
  });

  it('ends a catastrophically backtracking pattern with a clear error while the main thread keeps running', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'ok.txt': 'aaa\n', 'slow.txt': catastrophicLine });
    const tool = searchFilesTool({ fileMs: 300 });
    const { outcome, ticks } = await countingTicks(async () => runTool(tool, { pattern: '(a+)+$' }, await toolContextFor(root)));
    expect(outcome.status).toBe('rejected');
    const error = (outcome as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(ToolError);
    expect(error.message).toMatch(/^search_files gave up: the pattern ran for more than 0\.3 s on slow\.txt without finishing\. .*nested quantifiers/);
    expect(ticks).toBeGreaterThan(5);
    expect(await runTool(tool, { pattern: 'a{3}$' }, await toolContextFor(root))).toBe('1 matching line in 1 file:\nok.txt:1: aaa');
  });

  it('stops a running search when the signal aborts', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'slow.txt': catastrophicLine });
    const controller = new AbortController();
    const tool = searchFilesTool({ fileMs: 600_000, totalMs: 600_000 });
    const context = await toolContextFor(root, { signal: controller.signal });
    const { outcome } = await countingTicks(async (ticks) => {
      const search = runTool(tool, { pattern: '(a+)+$' }, context);
      const aborter = setInterval(() => {
        if (ticks() >= 10) controller.abort(new Error('cancelled by the user'));
      }, 1);
      return search.finally(() => clearInterval(aborter));
    });
    expect(outcome).toMatchObject({ status: 'rejected', reason: new Error('cancelled by the user') });
  });

  it('gives up on the whole search after its overall time limit', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'slow.txt': catastrophicLine });
    const tool = searchFilesTool({ fileMs: 600_000, totalMs: 300 });
    await expect(runTool(tool, { pattern: '(a+)+$' }, await toolContextFor(root))).rejects.toThrow(/^search_files gave up after 0\.3 s .*Narrow it with path or glob/);
  });

  it('leaves out what is not a regular file: links, pipes, empty folders', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'needle\n' });
    await mkdir(path.join(root, 'empty-dir'));
    await symlink('a.txt', path.join(root, 'inside-link.txt'));
    execFileSync('mkfifo', [path.join(root, 'pipe.txt')]);
    const context = await toolContextFor(root);
    expect(matchLines(await runTool(searchFiles, { pattern: 'needle' }, context))).toEqual(['a.txt:1: needle']);
    await expect(runTool(searchFiles, { pattern: 'needle', path: 'pipe.txt' }, context)).rejects.toThrow('pipe.txt is not a regular file or folder');
  });
});
