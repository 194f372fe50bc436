import { execFileSync } from 'node:child_process';
import { link, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { maxGitignoreBytes, readGitignore } from '../../../engine/workspace/gitignoreText.js';
import { walkFiles } from '../../../engine/workspace/walkFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Every file a walk gives, in order. */
async function walked(root: string): Promise<string[]> {
  const files: string[] = [];
  for await (const file of walkFiles(root)) files.push(file.relPath);
  return files;
}

// A .gitignore is folder text like any other: planted as a FIFO, a link or a hard link to an outside file,
// or grown huge, it must neither hang a walk nor apply (and so reveal) an outside file's rules.
describe('a planted .gitignore', () => {
  const tempFolder = useTempFolders('rpi-gitignore-');

  async function folderWith(plant: (gitignore: string, outside: string) => Promise<void>) {
    const root = await tempFolder();
    const outside = await tempFolder();
    await writeTree(root, { 'sub/secret-notes.txt': 'kept\n', 'sub/readme.txt': 'kept\n', 'debug.log': 'ignored\n', '.gitignore': '*.log\n' });
    await writeFile(path.join(outside, 'rules'), 'secret*\n');
    await plant(path.join(root, 'sub', '.gitignore'), outside);
    return root;
  }

  it.each<[string, (gitignore: string, outside: string) => Promise<void>]>([
    ['a FIFO', async (gitignore) => void execFileSync('mkfifo', [gitignore])],
    ['a link to an outside file', (gitignore, outside) => symlink(path.join(outside, 'rules'), gitignore)],
    ['a link to /dev/zero', (gitignore) => symlink('/dev/zero', gitignore)],
    ['a hard link to an outside file', (gitignore, outside) => link(path.join(outside, 'rules'), gitignore)],
    ['larger than any real one', async (gitignore) => {
      await writeFile(gitignore, 'secret*\n');
      await truncate(gitignore, maxGitignoreBytes + 1);
    }],
  ])('is not read when it is %s: walks and checkpoints go on, its rules not applied', async (_kind, plant) => {
    const root = await folderWith(plant);
    expect(readGitignore(root, 'sub')).toBeNull();
    expect(readGitignore(root, '')).toBe('*.log\n'); // the folder's own is still read
    const files = await walked(root);
    expect(files).toContain('sub/secret-notes.txt');
    expect(files).not.toContain('debug.log');

    const store = await CheckpointStore.open(root, await tempFolder());
    const { id } = await store.snapshot({ reason: 'run', messageId: 'm1' });
    const recorded = [...(await store.readCheckpoint(id)).files.keys()];
    expect(recorded).toContain('sub/secret-notes.txt');
    expect(recorded).not.toContain('debug.log');
  });

  it('is read when it is a plain file of the folder', async () => {
    const root = await folderWith((gitignore) => writeFile(gitignore, 'secret*\n'));
    expect(readGitignore(root, 'sub')).toBe('secret*\n');
    expect(await walked(root)).not.toContain('sub/secret-notes.txt');
  });
});
