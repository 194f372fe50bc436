import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scanWorkspace } from '../../../engine/checkpoints/scanWorkspace.js';
import { walkFiles } from '../../../engine/workspace/walkFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { clockAhead } from './checkpointFixture.js';

async function walkedFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  for await (const file of walkFiles(root)) found.push(file.relPath);
  return found.sort();
}

describe('scanWorkspace', () => {
  const tempFolder = useTempFolders('rpi-checkpoints-');
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sees the files walkFiles sees, and every folder it walks into, empty ones included', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      '.gitignore': '*.log\n!keep.log\nbuild/\n/top-only.txt\n',
      'a.txt': '',
      'debug.log': '',
      'keep.log': '',
      'build/out.js': '',
      'top-only.txt': '',
      'src/top-only.txt': '',
      'src/.gitignore': 'secret.txt\n/local-only/\n',
      'src/secret.txt': '',
      'src/local-only/x.ts': '',
      'src/lib/local-only/y.ts': '',
      'src/lib/code.ts': '',
      '.git/HEAD': '',
      '.workbench/state.json': '',
    });
    await mkdir(path.join(root, 'empty/nested'), { recursive: true });
    await mkdir(path.join(root, 'src/build'));
    await symlink('src', path.join(root, 'link-to-folder'));

    const scan = await scanWorkspace(root);
    expect([...scan.paths].sort()).toEqual(await walkedFiles(root));
    expect([...scan.listing.keys()].sort()).toEqual(['', 'empty', 'empty/nested', 'src', 'src/lib', 'src/lib/local-only']);
    expect(scan.paths).toContain('link-to-folder');
  });

  it('sees a name added to a folder it listed before, even with the folder’s mtime put back', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'src/deep/c.ts': '' });
    const stamp = Math.floor(Date.now() / 1000) - 59.5; // seconds, exact at any precision
    await utimes(path.join(root, 'src/deep'), stamp, stamp);
    clockAhead(10_000); // the folders' times are then well before the scan, so their listings can be trusted next time
    const first = await scanWorkspace(root);

    await writeFile(path.join(root, 'src/deep/d.txt'), '');
    await utimes(path.join(root, 'src/deep'), stamp, stamp); // only its ctime still tells
    const second = await scanWorkspace(root, { cache: first.cache });
    expect([...second.paths].sort()).toEqual(['src/deep/c.ts', 'src/deep/d.txt']);
  });

  it('sorts a folder out afresh when its .gitignore was edited in place or an entry changed kind', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'src/.gitignore': '*.tmp\n', 'src/a.ts': '', 'src/b.tmp': '', 'src/deep/c.ts': '' });
    clockAhead(10_000);
    const first = await scanWorkspace(root);
    expect([...first.paths].sort()).toEqual(['src/.gitignore', 'src/a.ts', 'src/deep/c.ts']);

    await writeFile(path.join(root, 'src/.gitignore'), '*.ts\n');
    const rulesChanged = await scanWorkspace(root, { cache: first.cache });
    expect([...rulesChanged.paths].sort()).toEqual(['src/.gitignore', 'src/b.tmp']);

    await rm(path.join(root, 'src/b.tmp'));
    await mkdir(path.join(root, 'src/b.tmp'));
    const kindChanged = await scanWorkspace(root, { cache: rulesChanged.cache });
    expect([...kindChanged.paths].sort()).toEqual(['src/.gitignore']);
    expect(kindChanged.listing.get('src')?.folders.sort()).toEqual(['src/b.tmp', 'src/deep']);
  });
});
