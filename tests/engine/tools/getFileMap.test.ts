import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getFileMap, getFileMapTool } from '../../../engine/tools/getFileMap.js';
import { ToolError } from '../../../engine/tools/tool.js';
import { PathRefusedError } from '../../../engine/workspace/pathRules.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const project = {
  '.gitignore': 'dist/\n*.log\n',
  'README.md': '# Demo\n\nHello.\n',
  'debug.log': 'ignored',
  'dist/app.js': 'ignored',
  'src/.gitignore': 'generated/\n',
  'src/index.ts': 'export {};\n',
  'src/generated/types.ts': 'ignored',
  'src/util/strings.ts': 'a\nb\nc',
  'src/util/deep/er/most.ts': '',
  '.git/HEAD': 'ignored',
  '.workbench/lock': 'ignored',
};

/** Writes many files at once: the folders first, then every file in parallel. */
async function writeMany(root: string, files: Record<string, string>): Promise<void> {
  const folders = new Set(Object.keys(files).map((file) => path.dirname(path.join(root, file))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(Object.entries(files).map(([file, content]) => writeFile(path.join(root, file), content)));
}

describe('get_file_map', () => {
  const tempFolder = useTempFolders();

  async function mapOf(root: string, args: Record<string, unknown> = {}, tool = getFileMap): Promise<string> {
    return runTool(tool, args, await toolContextFor(root));
  }

  async function projectFolder(): Promise<string> {
    const root = await tempFolder();
    await writeTree(root, project);
    await writeFile(path.join(root, 'logo.png'), png);
    return root;
  }

  it('shows the tree with each file’s size and line count, binary files marked, ignored files left out', async () => {
    const root = await projectFolder();
    expect(await mapOf(root)).toBe(
      [
        '.: 7 files, 70 B in all; files ignored by .gitignore are left out',
        '.gitignore  12 B, 2 lines',
        'README.md  15 B, 3 lines',
        'logo.png  16 B, binary',
        'src/  4 files, 27 B',
        '  .gitignore  11 B, 1 line',
        '  index.ts  11 B, 1 line',
        '  util/  2 files, 5 B',
        '    deep/  1 file, 0 B (collapsed)',
        '    strings.ts  5 B, 3 lines',
        'Folders marked (collapsed) show only their totals: their contents are deeper than depth 3. To look inside one, ' +
          'call get_file_map with its path (e.g. "src/util/deep") or a larger depth, or list_files.',
      ].join('\n'),
    );
  });

  it('collapses folders below the requested depth, with their file counts and sizes', async () => {
    const root = await projectFolder();
    expect(await mapOf(root, { depth: 1 })).toBe(
      [
        '.: 7 files, 70 B in all; files ignored by .gitignore are left out',
        '.gitignore  12 B, 2 lines',
        'README.md  15 B, 3 lines',
        'logo.png  16 B, binary',
        'src/  4 files, 27 B (collapsed)',
        'Folders marked (collapsed) show only their totals: their contents are deeper than depth 1. To look inside one, ' +
          'call get_file_map with its path (e.g. "src") or a larger depth, or list_files.',
      ].join('\n'),
    );
    expect(await mapOf(root, { depth: 5 })).toContain('    deep/  1 file, 0 B\n      er/  1 file, 0 B\n        most.ts  0 B, 0 lines');
  });

  it('maps a subfolder, with the .gitignore files above it still applied', async () => {
    const root = await projectFolder();
    await writeTree(root, { 'src/util/trace.log': 'ignored by the root .gitignore' });
    expect(await mapOf(root, { path: 'src/util', depth: 10 })).toBe(
      ['src/util: 2 files, 5 B in all; files ignored by .gitignore are left out', 'deep/  1 file, 0 B', '  er/  1 file, 0 B', '    most.ts  0 B, 0 lines', 'strings.ts  5 B, 3 lines'].join('\n'),
    );
  });

  it('maps a folder .gitignore ignores when it is asked for by name, and says so', async () => {
    const root = await projectFolder();
    expect(await mapOf(root, { path: 'dist' })).toBe(
      [
        'dist: 1 file, 7 B in all; files ignored by .gitignore are left out',
        'app.js  7 B, 1 line',
        'Note: dist is ignored by .gitignore; it is mapped because it was asked for by name.',
      ].join('\n'),
    );
  });

  it('keeps a large tree within 400 lines, collapsing deeper levels first, and says how to see more', async () => {
    const root = await tempFolder();
    const files: Record<string, string> = {};
    for (let p = 0; p < 10; p += 1) for (let m = 0; m < 15; m += 1) for (let f = 0; f < 20; f += 1) files[`pkg${p}/mod${m}/file${f}.ts`] = 'export {};\n';
    await writeMany(root, files);

    const map = await mapOf(root);
    const lines = map.split('\n');

    expect(lines[0]).toBe('.: 3,000 files, 32 KB in all; files ignored by .gitignore are left out');
    expect(lines.length).toBeLessThanOrEqual(403);
    expect(map.length).toBeLessThanOrEqual(20_000);
    expect(lines).toContain('pkg9/  300 files, 3.2 KB');
    expect(lines).toContain('  mod0/  20 files, 220 B');
    expect(lines).toContain('    file0.ts  11 B, 1 line');
    expect(lines).toContain('  mod9/  20 files, 220 B (collapsed)');
    expect(lines.at(-1)).toBe(
      'Folders marked (collapsed) show only their totals: their contents did not fit in this map of at most 400 lines. ' +
        'To look inside one, call get_file_map with its path (e.g. "pkg0/mod7"), or list_files.',
    );
  });

  it('opens small folders before a huge one, which stays collapsed', async () => {
    const root = await tempFolder();
    const files: Record<string, string> = { 'src/a.ts': '', 'src/b.ts': '', 'docs/guide.md': '' };
    for (let i = 0; i < 500; i += 1) files[`data/row${i}.csv`] = '';
    await writeMany(root, files);

    expect((await mapOf(root)).split('\n').slice(0, 7)).toEqual([
      '.: 503 files, 0 B in all; files ignored by .gitignore are left out',
      'data/  500 files, 0 B (collapsed)',
      'docs/  1 file, 0 B',
      '  guide.md  0 B, 0 lines',
      'src/  2 files, 0 B',
      '  a.ts  0 B, 0 lines',
      '  b.ts  0 B, 0 lines',
    ]);
  });

  it('cuts a folder with too many entries of its own short, saying how many more there are', async () => {
    const root = await tempFolder();
    const files: Record<string, string> = { 'sub/inner.txt': '' };
    for (let i = 0; i < 600; i += 1) files[`f${String(i).padStart(3, '0')}.txt`] = '';
    await writeMany(root, files);

    const lines = (await mapOf(root)).split('\n');

    expect(lines.length).toBeLessThanOrEqual(403);
    expect(lines).toContain('f000.txt  0 B, 0 lines');
    expect(lines).not.toContain('sub/  1 file, 0 B');
    expect(lines.at(-2)).toMatch(/^… \d+ more entries \(\d+ files, 1 folder\)$/);
    expect(lines.at(-1)).toBe('The entries of . were cut short to keep this map under 400 lines; list_files with path "." lists them.');
  });

  it('shows symlinks with their target and never follows them', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(outside, { 'secret.txt': 'outside' });
    await writeTree(root, { 'a.txt': 'a\n' });
    await symlink(outside, path.join(root, 'outside'), 'dir');
    expect(await mapOf(root)).toBe(['.: 2 files, 2 B in all; files ignored by .gitignore are left out', 'a.txt  2 B, 1 line', `outside@ -> ${outside}`].join('\n'));
  });

  it('adds up folder sizes only for trees small enough to measure every file', async () => {
    const root = await projectFolder();
    const map = await mapOf(root, {}, getFileMapTool({ sizedFilesLimit: 5 }));
    expect(map.split('\n').slice(0, 5)).toEqual([
      '.: 7 files, too many to add up folder sizes (over 5); files ignored by .gitignore are left out',
      '.gitignore  12 B, 2 lines',
      'README.md  15 B, 3 lines',
      'logo.png  16 B, binary',
      'src/  4 files',
    ]);
  });

  it('counts lines within a byte budget, smallest files first, and says which files show a size only', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'small.txt': 'a\nb\n', 'large.txt': 'line\n'.repeat(100) });
    expect(await mapOf(root, {}, getFileMapTool({ lineCountBytes: 10 }))).toBe(
      [
        '.: 2 files, 504 B in all; files ignored by .gitignore are left out',
        'large.txt  500 B',
        'small.txt  4 B, 2 lines',
        'Files shown with a size only were not read for a line count; get_file_info gives it.',
      ].join('\n'),
    );
  });

  it('refuses .git/, .workbench/, files, missing folders and paths outside the project', async () => {
    const root = await projectFolder();
    const context = await toolContextFor(root);
    await expect(runTool(getFileMap, { path: '.workbench' }, context)).rejects.toThrow('Refused path ".workbench": .workbench/ is never listed');
    await expect(runTool(getFileMap, { path: '.git' }, context)).rejects.toThrow(PathRefusedError);
    await expect(runTool(getFileMap, { path: 'README.md' }, context)).rejects.toThrow(ToolError);
    await expect(runTool(getFileMap, { path: 'nowhere' }, context)).rejects.toThrow('nowhere does not exist.');
    for (const escape of ['..', '../sibling', '/etc']) await expect(runTool(getFileMap, { path: escape }, context)).rejects.toThrow(PathRefusedError);
  });

  it('stops when the run is cancelled', async () => {
    const root = await projectFolder();
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    await expect(runTool(getFileMap, {}, await toolContextFor(root, { signal: controller.signal }))).rejects.toThrow('cancelled by the user');
  });
});
