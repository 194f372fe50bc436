import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFileSizes, addSizes, buildFileTree, type FileTreeEntry, type FileTreeFolder } from '../../../engine/workspace/fileTree.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** The tree as nested plain data: folders as { name: [entries] } with their counts, files as "name size". */
function shape(entry: FileTreeEntry): unknown {
  if (entry.type !== 'folder') return `${entry.name} ${entry.type} ${entry.size}`;
  return { [`${entry.name}/ ${entry.fileCount} files ${entry.totalSize}`]: entry.entries.map(shape) };
}

function find(top: FileTreeFolder, relPath: string): FileTreeEntry | undefined {
  for (const entry of top.entries) {
    if (entry.relPath === relPath) return entry;
    if (entry.type === 'folder' && relPath.startsWith(`${entry.relPath}/`)) return find(entry, relPath);
  }
  return undefined;
}

const project = {
  '.gitignore': '*.log\n',
  'b.txt': 'bb',
  'a/one.txt': '1',
  'a/debug.log': 'ignored',
  'a/deep/two.txt': '22',
  'only-ignored/x.log': 'ignored',
  'z/three.txt': '333',
};

describe('buildFileTree', () => {
  const tempFolder = useTempFolders();

  it('builds the visible files as a tree in name order, with recursive counts, leaving out folders with nothing visible', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    const top = await buildFileTree({ root, from: '' });
    expect(shape(top)).toEqual({
      '/ 5 files null': [
        '.gitignore file null',
        { 'a/ 2 files null': [{ 'deep/ 1 files null': ['two.txt file null'] }, 'one.txt file null'] },
        'b.txt file null',
        { 'z/ 1 files null': ['three.txt file null'] },
      ],
    });
  });

  it('measures every file with addSizes, or just the given ones with addFileSizes', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    const whole = await buildFileTree({ root, from: '' });
    const part = await buildFileTree({ root, from: '' });

    addSizes(root, whole);
    const one = find(part, 'a/deep/two.txt');
    addFileSizes(root, one?.type === 'file' ? [one] : []);

    expect(whole.totalSize).toBe(6 + 2 + 1 + 2 + 3);
    expect(find(whole, 'a')).toMatchObject({ fileCount: 2, totalSize: 3 });
    expect(find(part, 'a/deep/two.txt')).toMatchObject({ size: 2 });
    expect(find(part, 'a/one.txt')).toMatchObject({ size: null });
    expect(part.totalSize).toBeNull();
  });

  it('maps a subfolder, with paths still from the root', async () => {
    const root = await tempFolder();
    await writeTree(root, project);
    const top = await buildFileTree({ root, from: 'a' });
    expect(top).toMatchObject({ name: 'a', relPath: 'a', fileCount: 2 });
    expect(top.entries.map((entry) => entry.relPath)).toEqual(['a/deep', 'a/one.txt']);
  });

  it.skipIf(process.platform === 'win32')('keeps symlinks as entries of size 0, never followed', async () => {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(outside, { 'big.bin': 'x'.repeat(1000) });
    await writeTree(root, { 'a.txt': 'a' });
    await symlink(outside, path.join(root, 'link'), 'dir');
    const top = await buildFileTree({ root, from: '' });
    addSizes(root, top);
    expect(shape(top)).toEqual({ '/ 2 files 1': ['a.txt file 1', 'link symlink 0'] });
  });
});
