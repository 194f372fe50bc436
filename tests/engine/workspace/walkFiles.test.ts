import { spawnSync } from 'node:child_process';
import { chmod, mkdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countFiles, walkFiles } from '../../../engine/workspace/walkFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  for await (const file of walkFiles(root)) found.push(file.relPath);
  return found;
}

/** What git itself reports as visible (untracked, not ignored) in `root`, or null without a git binary. */
function gitVisibleFiles(root: string): string[] | null {
  // The user's own global excludes must not change the answer.
  const env = { ...process.env, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1', XDG_CONFIG_HOME: path.join(root, '.no-config') };
  const init = spawnSync('git', ['init', '-q', '.'], { cwd: root, env });
  if (init.error || init.status !== 0) return null;
  const listed = spawnSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: root, env, encoding: 'utf8' });
  return listed.stdout.split('\0').filter(Boolean).sort();
}

const project = {
  '.gitignore': '*.log\n!keep.log\nbuild/\n/top-only.txt\n# a comment\n\n',
  'a.txt': '',
  'debug.log': '',
  'keep.log': '',
  'build/out.js': '',
  'top-only.txt': '',
  'src/build/deep.js': '',
  'src/top-only.txt': '',
  'src/.gitignore': 'secret.txt\n!important.log\n/local-only/\n',
  'src/secret.txt': '',
  'src/important.log': '',
  'src/other.log': '',
  'src/local-only/x.ts': '',
  'src/lib/local-only/y.ts': '',
  'src/lib/secret.txt': '',
  'src/lib/code.ts': '',
  'docs/secret.txt': '',
  'docs/local-only/z.md': '',
};

describe('walkFiles', () => {
  const tempFolder = useTempFolders();

  it('yields the files git would see, in name order, honouring nested .gitignore files', async () => {
    const root = await tempFolder();
    await writeTree(root, project);

    expect(await listFiles(root)).toEqual([
      '.gitignore',
      'a.txt',
      'docs/local-only/z.md',
      'docs/secret.txt',
      'keep.log',
      'src/.gitignore',
      'src/important.log',
      'src/lib/code.ts',
      'src/lib/local-only/y.ts',
      'src/top-only.txt',
    ]);
    expect(await countFiles(root)).toBe(10);
  });

  it('agrees with git on the same tree', async (context) => {
    const root = await tempFolder();
    await writeTree(root, project);
    const fromGit = gitVisibleFiles(root);
    if (fromGit === null) {
      context.skip('no git binary on PATH to compare with');
      return;
    }
    expect([...(await listFiles(root))].sort()).toEqual(fromGit);
  });

  it('agrees with git when a deeper .gitignore re-includes a folder that a shallower one ignores by name', async (context) => {
    const root = await tempFolder();
    await writeTree(root, {
      '.gitignore': 'build/\n*.tmp\n',
      'build/out.js': '',
      'src/.gitignore': '!build/\n',
      'src/build/kept.js': '',
      'src/build/scratch.tmp': '',
      'src/app.ts': '',
    });
    const fromGit = gitVisibleFiles(root);
    if (fromGit === null) {
      context.skip('no git binary on PATH to compare with');
      return;
    }
    expect(fromGit).toContain('src/build/kept.js');
    expect([...(await listFiles(root))].sort()).toEqual(fromGit);
  });

  it('walks a subfolder with the .gitignore files above it applied', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    const found: string[] = [];
    for await (const file of walkFiles(root, { from: 'src/lib' })) found.push(file.relPath);
    expect(found).toEqual(['src/lib/code.ts', 'src/lib/local-only/y.ts']);
  });

  it('walks a folder that .gitignore ignores when asked for it by name, applying only the .gitignore files inside it', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': 'build/\n*.log\n', 'build/out.js': '', 'build/trace.log': '', 'build/.gitignore': '*.map\n', 'build/out.js.map': '' });
    const found: string[] = [];
    for await (const file of walkFiles(root, { from: 'build' })) found.push(file.relPath);
    expect(found).toEqual(['build/.gitignore', 'build/out.js', 'build/trace.log']);
  });

  it('never enters .git/ or .workbench/, at any depth, whatever .gitignore says', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      '.gitignore': '!.git/\n!.workbench/\n',
      '.git/HEAD': '',
      '.workbench/lock': '',
      'vendor/.git/config': '',
      'vendor/lib.js': '',
    });
    expect(await listFiles(root)).toEqual(['.gitignore', 'vendor/lib.js']);
  });

  it.skipIf(process.platform === 'win32')('yields a symlink as an entry and never follows it', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(outside, { 'one.txt': '', 'two.txt': '' });
    await mkdir(path.join(root, 'real'));
    await writeTree(root, { 'real/file.txt': '' });
    await symlink(outside, path.join(root, 'outside-link'), 'dir');
    await symlink(path.join(root, 'real'), path.join(root, 'real', 'loop'), 'dir');

    const found: { relPath: string; symlink: boolean }[] = [];
    for await (const file of walkFiles(root)) found.push({ relPath: file.relPath, symlink: file.dirent.isSymbolicLink() });
    expect(found).toEqual([
      { relPath: 'outside-link', symlink: true },
      { relPath: 'real/file.txt', symlink: false },
      { relPath: 'real/loop', symlink: true },
    ]);
  });

  it('stops when its signal is aborted', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': '' });
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    await expect(countFiles(root, { signal: controller.signal })).rejects.toThrow('cancelled by the user');
  });

  // root reads every folder whatever its mode.
  it.skipIf(process.getuid?.() === 0)('skips a folder it may not read, and tells onUnreachable why', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': '', 'locked/secret.txt': '' });
    await chmod(path.join(root, 'locked'), 0o000);
    try {
      const skipped: { relPath: string; reason: string }[] = [];
      expect(await countFiles(root, { onUnreachable: (subtree) => skipped.push(subtree) })).toBe(1);
      expect(skipped).toEqual([{ relPath: 'locked', reason: 'it may not be read (EACCES)' }]);
    } finally {
      await chmod(path.join(root, 'locked'), 0o755);
    }
  });

  it('fails when the root itself cannot be read', async () => {
    const root = await tempFolder();
    await expect(countFiles(path.join(root, 'gone'))).rejects.toThrow(/ENOENT/);
  });
});
