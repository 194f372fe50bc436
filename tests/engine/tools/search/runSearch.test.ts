import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSearch } from '../../../../engine/tools/search/runSearch.js';
import { compilePattern } from '../../../../engine/tools/search/searchPattern.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

async function* listed(...paths: string[]): AsyncGenerator<string[]> {
  yield paths;
}

describe('runSearch', () => {
  const tempFolder = useTempFolders('rpi-run-search-');

  it('reads nothing through a symlink swapped in after the walk, whether it is the file or a folder above it', async () => {
    const base = await tempFolder();
    await writeTree(base, { 'outside/secret.txt': 'needle\n', 'proj/inside.txt': 'needle\n' });
    const root = path.join(base, 'proj');
    await symlink(path.join(base, 'outside'), path.join(root, 'swapped-folder'));
    await symlink(path.join(base, 'outside', 'secret.txt'), path.join(root, 'swapped-file.txt'));

    const outcome = await runSearch({
      root,
      files: listed('inside.txt', 'swapped-folder/secret.txt', 'swapped-file.txt'),
      regex: compilePattern('needle'),
      maxResults: 100,
      signal: new AbortController().signal,
    });

    expect(outcome.files).toEqual([{ path: 'inside.txt', lines: [1], texts: ['needle'] }]);
    expect(outcome.unreadable).toBe(2);
  });
});
