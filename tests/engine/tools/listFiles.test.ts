import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../../engine/tools/listFiles.js';
import { ToolError } from '../../../engine/tools/tool.js';
import { PathRefusedError } from '../../../engine/workspace/pathRules.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

const project = {
  '.gitignore': 'build/\n*.log\n',
  'README.md': '# hi\n',
  'debug.log': '',
  'build/out.js': '',
  'src/.gitignore': 'secret.txt\n',
  'src/app.ts': '',
  'src/secret.txt': '',
  'src/trace.log': '',
  'src/lib/util.ts': '',
  'src/lib/deep/more.ts': '',
  '.git/HEAD': '',
  '.workbench/lock': '',
};

describe('list_files', () => {
  const tempFolder = useTempFolders();

  async function listIn(root: string, args: Record<string, unknown>): Promise<string> {
    return runTool(listFiles, args, await toolContextFor(root));
  }

  it('lists the direct entries of the project folder in name order, folders ending in "/"', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    expect(await listIn(root, {})).toBe(
      ['. (3 entries):', '.gitignore', 'README.md', 'src/', 'Not shown: 2 entries ignored by .gitignore (build/, debug.log).'].join('\n'),
    );
  });

  it('lists every file below a folder with recursive, relative to it, honouring .gitignore at every level', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    expect(await listIn(root, { recursive: true })).toBe(
      ['6 files under . (paths relative to it):', '.gitignore', 'README.md', 'src/.gitignore', 'src/app.ts', 'src/lib/deep/more.ts', 'src/lib/util.ts'].join('\n'),
    );
  });

  it('applies the ancestors’ .gitignore files when listing a subfolder', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    expect(await listIn(root, { path: 'src', recursive: true })).toBe(
      ['4 files under src (paths relative to it):', '.gitignore', 'app.ts', 'lib/deep/more.ts', 'lib/util.ts'].join('\n'),
    );
    expect(await listIn(root, { path: 'src' })).toBe(
      ['src (3 entries):', '.gitignore', 'app.ts', 'lib/', 'Not shown: 2 entries ignored by .gitignore (secret.txt, trace.log).'].join('\n'),
    );
  });

  it('lists a folder that .gitignore ignores when it is asked for by name, and says so', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    expect(await listIn(root, { path: 'build' })).toBe(
      ['build (1 entry):', 'out.js', 'Note: build is ignored by .gitignore; it is listed because it was asked for by name.'].join('\n'),
    );
  });

  it('never lists .git/ or .workbench/, and refuses them when asked directly', async () => {
    const root = await tempFolder();
    await writeTree(root, { ...project, 'vendor/.git/config': '', 'vendor/lib.js': '' });
    const context = await toolContextFor(root);

    expect(await runTool(listFiles, {}, context)).not.toMatch(/\.git\/|\.workbench/);
    expect(await runTool(listFiles, { recursive: true }, context)).not.toMatch(/\.git\/|\.workbench/);
    expect(await runTool(listFiles, { path: 'vendor' }, context)).toBe('vendor (1 entry):\nlib.js');
    for (const hidden of ['.git', '.workbench', 'vendor/.git', '.git/refs']) {
      await expect(runTool(listFiles, { path: hidden }, context)).rejects.toThrow(PathRefusedError);
    }
    await expect(runTool(listFiles, { path: '.git' }, context)).rejects.toThrow('Refused path ".git": .git/ is never listed');
  });

  it.skipIf(process.platform === 'win32')('shows symlinks with their target and never follows them', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(outside, { 'secret-a.txt': '', 'secret-b.txt': '' });
    await writeTree(root, { 'src/app.ts': '' });
    await symlink(outside, path.join(root, 'outside'), 'dir');
    await symlink('app.ts', path.join(root, 'src', 'alias.ts'));
    const context = await toolContextFor(root);

    const direct = await runTool(listFiles, {}, context);
    const recursive = await runTool(listFiles, { recursive: true }, context);

    expect(direct).toBe(['. (2 entries):', `outside@ -> ${outside}`, 'src/'].join('\n'));
    expect(recursive).toBe(['3 files under . (paths relative to it):', `outside@ -> ${outside}`, 'src/alias.ts@ -> app.ts', 'src/app.ts'].join('\n'));
    expect(recursive).not.toContain('secret');
    await expect(runTool(listFiles, { path: 'outside' }, context)).rejects.toThrow(/symlink that leads outside the project folder/);
  });

  it('stops at 1,000 entries and says how many were left out and how to narrow', async () => {
    const root = await tempFolder();
    await mkdir(path.join(root, 'many'));
    await writeTree(root, Object.fromEntries(Array.from({ length: 1234 }, (_, i) => [`many/f${String(i).padStart(4, '0')}.txt`, ''])));
    const context = await toolContextFor(root);

    const direct = (await runTool(listFiles, { path: 'many' }, context)).split('\n');
    const recursive = (await runTool(listFiles, { recursive: true }, context)).split('\n');

    expect(direct).toHaveLength(1002);
    expect(direct[0]).toBe('many (1,234 entries):');
    expect(direct.at(-2)).toBe('f0999.txt');
    expect(direct.at(-1)).toBe('… 234 more entries not shown. To narrow: search_files with a glob, or get_file_map for an overview.');
    expect(recursive[0]).toBe('1,234 files under ., the first 1,000 shown (paths relative to it):');
    expect(recursive.at(-1)).toBe('… 234 more files not shown. To narrow: list a subfolder, use get_file_map for an overview, or search_files with a glob.');
  });

  it('keeps long listings within what the model sees of a result', async () => {
    const root = await tempFolder();
    const longName = 'x'.repeat(120);
    await writeTree(root, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`${longName}${i}.txt`, ''])));
    const result = await listIn(root, {});
    expect(result.length).toBeLessThanOrEqual(20_000);
    expect(result).toMatch(/… \d+ more entries not shown\./);
  });

  it('says a file is not a folder, and a missing path does not exist', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    const context = await toolContextFor(root);
    await expect(runTool(listFiles, { path: 'README.md' }, context)).rejects.toThrow(
      new ToolError('README.md is a file, not a folder. Use get_file_info for its size and line count, or read_file to read it.'),
    );
    await expect(runTool(listFiles, { path: 'nowhere' }, context)).rejects.toThrow(
      new ToolError('nowhere does not exist. Use list_files on its parent folder to see what is there.'),
    );
  });

  it('refuses paths that lead outside the project folder', async () => {
    const parent = await tempFolder();
    const root = path.join(parent, 'project');
    await writeTree(parent, { 'project/a.txt': '', 'sibling/b.txt': '' });
    const context = await toolContextFor(root);
    for (const escape of ['..', '../sibling', '/etc', root, 'src/../../sibling']) {
      await expect(runTool(listFiles, { path: escape }, context)).rejects.toThrow(PathRefusedError);
    }
  });

  it('says when a folder is empty', async () => {
    const root = await tempFolder();
    await mkdir(path.join(root, 'empty'));
    expect(await listIn(root, { path: 'empty' })).toBe('empty is empty.');
    expect(await listIn(root, { path: 'empty', recursive: true })).toBe('No files under empty (after .gitignore).');
  });
});
