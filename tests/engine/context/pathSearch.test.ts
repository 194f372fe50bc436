import { describe, expect, it } from 'vitest';
import { PathSearch } from '../../../engine/context/pathSearch.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('PathSearch (the composer’s @ completion)', () => {
  const tempFolder = useTempFolders('rpi-paths-');

  it('finds files and folders by fuzzy match, honouring .gitignore and never .git/ or .workbench/', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      '.gitignore': 'dist/\n*.log\n',
      'src/components/Composer.tsx': '',
      'src/components/chat/MessageItem.tsx': '',
      'src/store/composerState.ts': '',
      'dist/composer.js': '',
      'debug.log': '',
      '.git/config': '',
      '.workbench/conversation.jsonl': '',
      'README.md': '',
    });
    const search = new PathSearch({ root });
    const { matches, truncated } = await search.search('compo');
    expect(truncated).toBe(false);
    const paths = matches.map((match) => match.path);
    expect(paths[0]).toBe('src/components');
    expect(paths.slice(1, 3).sort()).toEqual(['src/components/Composer.tsx', 'src/store/composerState.ts']);
    expect(paths.some((found) => found.startsWith('dist') || found.startsWith('.git') || found.startsWith('.workbench'))).toBe(false);
    expect(matches.find((match) => match.path === 'src/components')?.kind).toBe('folder');
    expect((await search.search('msgitem')).matches[0]).toEqual({ path: 'src/components/chat/MessageItem.tsx', kind: 'file' });
    expect((await search.search('zzz')).matches).toEqual([]);
    expect((await search.search('debug.log')).matches).toEqual([]);
  });

  it('an empty query lists the shallowest paths, folders first', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'b.txt': '', 'a/deep/x.txt': '', 'z/y.txt': '' });
    const { matches } = await new PathSearch({ root }).search('');
    expect(matches.map((match) => match.path)).toEqual(['a', 'z', 'b.txt', 'a/deep', 'z/y.txt', 'a/deep/x.txt']);
  });

  it('caps the files it lists and says so, and lists again once its listing is old', async () => {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`f${String(index).padStart(2, '0')}.txt`, ''])));
    let now = 1_000;
    const search = new PathSearch({ root, filesLimit: 10, now: () => now });
    const first = await search.search('f');
    expect(first.truncated).toBe(true);
    expect(first.matches).toHaveLength(10);
    await writeTree(root, { 'new.txt': '' });
    expect((await search.search('new')).matches).toEqual([]);
    now += 6_000;
    expect((await new PathSearch({ root }).search('new')).matches).toEqual([{ path: 'new.txt', kind: 'file' }]);
    expect((await search.search('new')).matches).toEqual([]); // still capped to the first 10 in name order
  });

  it('ranks a hostile listing in slices, letting the process serve others meanwhile, and answers every caller', async () => {
    const root = await tempFolder();
    const deep = Array.from({ length: 40 }, () => 'a').join('/');
    await writeTree(root, Object.fromEntries(Array.from({ length: 1500 }, (_, index) => [`${deep}/${'a'.repeat(120)}${index}`, ''])));
    const search = new PathSearch({ root });
    await search.search(''); // the listing, walked once
    const heavy = 'a'.repeat(32);

    let served = false;
    setImmediate(() => {
      served = true;
    });
    const alone = await search.search(heavy);
    expect(alone.matches).toHaveLength(50);
    expect(served).toBe(true); // the search gave the event loop a turn before it answered

    // Two callers at once (two browser tabs): each gets its own answer.
    const [first, second] = await Promise.all([search.search(heavy), search.search('a120')]);
    expect(first.matches).toHaveLength(50);
    expect(second.matches[0]?.path).toMatch(/a120$/);
  });
});
