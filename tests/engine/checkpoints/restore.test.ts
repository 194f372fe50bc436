import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../../../engine/checkpoints/checkpointStore.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { projectWith, runTag, toolTag } from './checkpointFixture.js';
import { folderDigest } from './folderDigest.js';

const posixOnly = it.skipIf(process.platform === 'win32');

describe('CheckpointStore.restore', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');

  posixOnly('brings back folder modes: changed ones, and those of folders deleted and recreated, locked ones included', async () => {
    const { root, store } = await projectWith(tempFolder, { 'private/key.txt': 'k\n', 'shared/a.txt': 'a\n', 'shared/deep/b.txt': 'b\n', 'gone/c.txt': 'c\n' });
    await chmod(path.join(root, 'private'), 0o700);
    await chmod(path.join(root, 'shared'), 0o755);
    await chmod(path.join(root, 'shared/deep'), 0o750);
    await chmod(path.join(root, 'gone'), 0o711);
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    await chmod(path.join(root, 'private'), 0o755);
    await chmod(path.join(root, 'shared'), 0o700);
    await chmod(path.join(root, 'shared/deep'), 0o555);
    await rm(path.join(root, 'gone'), { recursive: true });

    expect(await store.changesSince(checkpoint.id)).toEqual([
      { path: 'gone', kind: 'folder', change: 'recreated' },
      { path: 'gone/c.txt', kind: 'file', change: 'recreated' },
      { path: 'private', kind: 'folder', change: 'restored' },
      { path: 'shared', kind: 'folder', change: 'restored' },
      { path: 'shared/deep', kind: 'folder', change: 'restored' },
    ]);
    await store.restore(checkpoint.id);
    const modes = async (folder: string) => (await stat(path.join(root, folder))).mode & 0o7777;
    expect(await Promise.all(['private', 'shared', 'shared/deep', 'gone'].map(modes))).toEqual([0o700, 0o755, 0o750, 0o711]);
    expect(await folderDigest(root)).toEqual(original);
    expect(await store.changesSince(checkpoint.id)).toEqual([]);
  });

  it('brings back modified files, removes files created since and recreates deleted ones', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'original a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n' });
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    await writeTree(root, { 'a.txt': 'edited\n', 'src/new.ts': 'new\n', 'new/deep/file.txt': 'deep\n' });
    await rm(path.join(root, 'src/b.ts'));
    const changed = await folderDigest(root);

    const preview = await store.changesSince(checkpoint.id);
    expect(preview).toEqual([
      { path: 'a.txt', kind: 'file', change: 'restored' },
      { path: 'new', kind: 'folder', change: 'removed' },
      { path: 'new/deep', kind: 'folder', change: 'removed' },
      { path: 'new/deep/file.txt', kind: 'file', change: 'removed' },
      { path: 'src/b.ts', kind: 'file', change: 'recreated' },
      { path: 'src/new.ts', kind: 'file', change: 'removed' },
    ]);
    expect(await folderDigest(root)).toEqual(changed); // a preview changes nothing

    expect(await store.restore(checkpoint.id)).toEqual(preview);
    expect(await folderDigest(root)).toEqual(original);
    expect(await store.changesSince(checkpoint.id)).toEqual([]);
  });

  posixOnly('restores permission bits, executable bits either way included', async () => {
    const { root, store } = await projectWith(tempFolder, { 'run.sh': '#!/bin/sh\necho hi\n', 'data.csv': 'a,b\n', 'private.key': 'k\n' });
    await chmod(path.join(root, 'run.sh'), 0o755);
    await chmod(path.join(root, 'private.key'), 0o600);
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    await chmod(path.join(root, 'run.sh'), 0o644);
    execFileSync('chmod', ['+x', 'data.csv'], { cwd: root });
    await chmod(path.join(root, 'private.key'), 0o666);
    expect(await store.restore(checkpoint.id)).toEqual([
      { path: 'data.csv', kind: 'file', change: 'restored' },
      { path: 'private.key', kind: 'file', change: 'restored' },
      { path: 'run.sh', kind: 'file', change: 'restored' },
    ]);
    expect(await folderDigest(root)).toEqual(original);
    expect((await stat(path.join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('restores binary content byte for byte, small and large', async () => {
    const small = Buffer.concat([Buffer.from([0, 0xff, 0xfe, 0x0d, 0x0a, 0x00, 0x80]), randomBytes(5_000)]);
    const large = randomBytes(1024 * 1024 * 2 + 3);
    const { root, store } = await projectWith(tempFolder);
    await writeFile(path.join(root, 'icon.bin'), small);
    await writeFile(path.join(root, 'blob.bin'), large);
    const checkpoint = await store.snapshot(runTag);

    await writeFile(path.join(root, 'icon.bin'), small.subarray(1));
    await rm(path.join(root, 'blob.bin'));
    await store.restore(checkpoint.id);
    expect((await readFile(path.join(root, 'icon.bin'))).equals(small)).toBe(true);
    expect((await readFile(path.join(root, 'blob.bin'))).equals(large)).toBe(true);
  });

  posixOnly('restores symlinks as links, and never writes through one', async () => {
    const outside = await tempFolder();
    await writeFile(path.join(outside, 'target.txt'), 'outside, must stay\n');
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'a\n', 'out.txt': 'inside\n' });
    await symlink('a.txt', path.join(root, 'link'));
    await symlink('nowhere', path.join(root, 'dangling'));
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    await rm(path.join(root, 'link'));
    await writeFile(path.join(root, 'link'), 'a file now\n');
    await rm(path.join(root, 'dangling'));
    await symlink('elsewhere', path.join(root, 'dangling'));
    await rm(path.join(root, 'out.txt'));
    await symlink(path.join(outside, 'target.txt'), path.join(root, 'out.txt'));

    await store.restore(checkpoint.id);
    expect(await folderDigest(root)).toEqual(original);
    expect(await readlink(path.join(root, 'link'))).toBe('a.txt');
    expect((await lstat(path.join(root, 'out.txt'))).isFile()).toBe(true);
    expect(await readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('outside, must stay\n');
  });

  it('recreates empty folders that existed and removes folders made since', async () => {
    const { root, store } = await projectWith(tempFolder, { 'keep/file.txt': 'x\n' });
    await mkdir(path.join(root, 'empty'));
    await mkdir(path.join(root, 'deep/er'), { recursive: true });
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    await rm(path.join(root, 'empty'), { recursive: true });
    await rm(path.join(root, 'deep'), { recursive: true });
    await mkdir(path.join(root, 'made/since'), { recursive: true });
    await mkdir(path.join(root, 'keep/sub'));

    expect(await store.restore(checkpoint.id)).toEqual([
      { path: 'deep', kind: 'folder', change: 'recreated' },
      { path: 'deep/er', kind: 'folder', change: 'recreated' },
      { path: 'empty', kind: 'folder', change: 'recreated' },
      { path: 'keep/sub', kind: 'folder', change: 'removed' },
      { path: 'made', kind: 'folder', change: 'removed' },
      { path: 'made/since', kind: 'folder', change: 'removed' },
    ]);
    expect(await folderDigest(root)).toEqual(original);
  });

  it('turns a folder back into a file, and a file back into a folder', async () => {
    const { root, store } = await projectWith(tempFolder, { x: 'x was a file\n', 'y/inner.txt': 'y was a folder\n' });
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    await rm(path.join(root, 'x'));
    await writeTree(root, { 'x/child.txt': 'now a folder\n' });
    await rm(path.join(root, 'y'), { recursive: true });
    await writeFile(path.join(root, 'y'), 'now a file\n');

    await store.restore(checkpoint.id);
    expect(await folderDigest(root)).toEqual(original);
  });

  it('leaves files .gitignore excludes, and .git/, as they are', async () => {
    const { root, store } = await projectWith(tempFolder, {
      '.gitignore': 'node_modules/\n*.log\n',
      'node_modules/dep/index.js': 'dependency v1\n',
      'build.log': 'log v1\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'src/app.ts': 'app v1\n',
    });
    const checkpoint = await store.snapshot(runTag);
    await writeTree(root, {
      'node_modules/dep/index.js': 'dependency v2\n',
      'build.log': 'log v2\n',
      '.git/HEAD': 'ref: refs/heads/other\n',
      'node_modules/added.js': 'added\n',
      'src/app.ts': 'app v2\n',
    });
    const dependencyInode = (await stat(path.join(root, 'node_modules/dep/index.js'))).ino;

    expect(await store.restore(checkpoint.id)).toEqual([{ path: 'src/app.ts', kind: 'file', change: 'restored' }]);
    expect(await readFile(path.join(root, 'src/app.ts'), 'utf8')).toBe('app v1\n');
    expect(await readFile(path.join(root, 'node_modules/dep/index.js'), 'utf8')).toBe('dependency v2\n');
    expect((await stat(path.join(root, 'node_modules/dep/index.js'))).ino).toBe(dependencyInode);
    expect(await readFile(path.join(root, 'node_modules/added.js'), 'utf8')).toBe('added\n');
    expect(await readFile(path.join(root, 'build.log'), 'utf8')).toBe('log v2\n');
    expect(await readFile(path.join(root, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/other\n');
  });

  it('keeps a folder it would remove when files .gitignore excludes are still in it', async () => {
    const { root, store } = await projectWith(tempFolder, { '.gitignore': '*.log\n' });
    const checkpoint = await store.snapshot(runTag);
    await writeTree(root, { 'made/code.ts': 'code\n', 'made/trace.log': 'ignored\n' });

    expect(await store.restore(checkpoint.id)).toEqual([{ path: 'made/code.ts', kind: 'file', change: 'removed' }]);
    expect(await readFile(path.join(root, 'made/trace.log'), 'utf8')).toBe('ignored\n');
  });

  it('refuses, changing nothing, to put back a file where a folder now holds files .gitignore excludes', async () => {
    const { root, store } = await projectWith(tempFolder, { '.gitignore': '*.log\n', report: 'a report\n', 'other.txt': 'v1\n' });
    const checkpoint = await store.snapshot(runTag);
    await rm(path.join(root, 'report'));
    await writeTree(root, { 'report/part.txt': 'part\n', 'report/run.log': 'ignored\n', 'other.txt': 'v2\n' });
    const before = await folderDigest(root);

    await expect(store.restore(checkpoint.id)).rejects.toThrow(CheckpointError);
    await expect(store.restore(checkpoint.id)).rejects.toThrow(/report must become a file again.*Nothing was changed/);
    expect(await folderDigest(root)).toEqual(before);
  });

  it('brings back a file that .gitignore has come to exclude since', async () => {
    const { root, store } = await projectWith(tempFolder, { 'dist/app.js': 'built v1\n', 'src/app.ts': 'v1\n' });
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);
    await writeTree(root, { '.gitignore': 'dist/\n', 'dist/app.js': 'built v2\n' });

    expect(await store.restore(checkpoint.id)).toEqual([
      { path: '.gitignore', kind: 'file', change: 'removed' },
      { path: 'dist/app.js', kind: 'file', change: 'restored' },
    ]);
    expect(await folderDigest(root)).toEqual(original);
  });

  it('runs snapshots and restores one at a time, in the order they were asked for', async () => {
    const { root, store } = await projectWith(tempFolder, { 'a.txt': 'v1\n', 'b/c.txt': 'c1\n' });
    const original = await folderDigest(root);
    const first = await store.snapshot(runTag);
    await writeTree(root, { 'a.txt': 'v2\n', 'b/c.txt': 'c2\n', 'd.txt': 'd\n' });

    const [restored, afterRestore] = await Promise.all([store.restore(first.id), store.snapshot(toolTag)]);
    expect(restored).toHaveLength(3);
    expect(afterRestore.fileCount).toBe(2); // taken once the restore was done, not halfway through it
    await writeTree(root, { 'a.txt': 'v3\n' });
    await store.restore(afterRestore.id);
    expect(await folderDigest(root)).toEqual(original);
  });

  it('refuses an id that is not a checkpoint of this store', async () => {
    const { store } = await projectWith(tempFolder, { 'a.txt': 'a\n' });
    await store.snapshot(runTag);
    await expect(store.restore('../../etc/passwd')).rejects.toThrow(/is not a checkpoint id/);
    await expect(store.changesSince('1700000000000-abcdef')).rejects.toThrow(/There is no checkpoint 1700000000000-abcdef/);
  });
});
