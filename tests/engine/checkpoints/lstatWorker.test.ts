import * as fs from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lstatAll, lstatInWorker, statFields } from '../../../engine/checkpoints/lstatWorker.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('lstatInWorker', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');

  it('answers from its thread what lstat answers here, NaN for a path that is not there', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'hello\n', 'sub/b.txt': '' });
    await symlink('a.txt', path.join(root, 'link'));
    const paths = ['a.txt', 'sub/b.txt', 'link', 'missing'];

    const fromWorker = await lstatInWorker(root, paths);
    expect(fromWorker).not.toBeNull(); // null would mean the thread could not start and the caller did the work
    expect([...fromWorker!]).toEqual([...lstatAll(fs, root, paths)]);
    const link = fs.lstatSync(path.join(root, 'link'));
    expect(fromWorker!.slice(2 * statFields, 3 * statFields)).toEqual(new Float64Array([link.mode, link.size, link.mtimeMs, link.ctimeMs, link.ino]));
    expect(Number.isNaN(fromWorker![3 * statFields])).toBe(true);
  });
});
