import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentFolders } from '../../../engine/settings/index.js';
import { useTempFolders } from '../../support/tempFolder.js';

describe('RecentFolders', () => {
  const tempFolder = useTempFolders();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is empty at first', async () => {
    expect(await new RecentFolders(await tempFolder()).list()).toEqual([]);
  });

  it('keeps the most recent first, with the folder’s name', async () => {
    const recent = new RecentFolders(await tempFolder());
    await recent.add('/home/me/alpha', 1);
    await recent.add('/home/me/beta', 2);
    expect(await recent.add('/home/me/gamma', 3)).toEqual([
      { folder: '/home/me/gamma', name: 'gamma', lastOpened: 3 },
      { folder: '/home/me/beta', name: 'beta', lastOpened: 2 },
      { folder: '/home/me/alpha', name: 'alpha', lastOpened: 1 },
    ]);
  });

  it('moves a folder opened again to the front instead of listing it twice', async () => {
    const dir = await tempFolder();
    const recent = new RecentFolders(dir);
    await recent.add('/p/a', 1);
    await recent.add('/p/b', 2);
    await recent.add('/p/a', 3);
    const listed = await new RecentFolders(dir).list();
    expect(listed.map((entry) => [entry.folder, entry.lastOpened])).toEqual([
      ['/p/a', 3],
      ['/p/b', 2],
    ]);
  });

  it('keeps at most 12, dropping the oldest', async () => {
    const recent = new RecentFolders(await tempFolder());
    for (let i = 1; i <= 14; i += 1) await recent.add(`/p/f${i}`, i);
    const listed = await recent.list();
    expect(listed).toHaveLength(12);
    expect(listed[0]?.folder).toBe('/p/f14');
    expect(listed.at(-1)?.folder).toBe('/p/f3');
  });

  it('starts over from an unreadable list, keeping the old file aside', async () => {
    const dir = await tempFolder();
    await writeFile(path.join(dir, 'recent-folders.json'), '[{"folder": 3}]');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const recent = new RecentFolders(dir);
    expect(await recent.list()).toEqual([]);
    await recent.add('/p/new', 5);
    expect(JSON.parse(await readFile(path.join(dir, 'recent-folders.json'), 'utf8'))).toEqual([{ folder: '/p/new', name: 'new', lastOpened: 5 }]);
  });
});
