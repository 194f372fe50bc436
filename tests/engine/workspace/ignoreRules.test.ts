import { describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../../engine/workspace/ignoreRules.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('IgnoreRules', () => {
  const tempFolder = useTempFolders();

  it('judges name patterns by the name at any depth, and path patterns relative to their .gitignore', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': '*.log\nbuild/\n', 'src/.gitignore': '/local/\ndocs/*.md\n' });
    const rules = IgnoreRules.none.enter(root, '').enter(root, 'src');

    expect(rules.ignores('src/deep/trace.log', false)).toBe(true);
    expect(rules.ignores('src/deep/build', true)).toBe(true);
    expect(rules.ignores('src/deep/build', false)).toBe(false);
    expect(rules.ignores('src/local', true)).toBe(true);
    expect(rules.ignores('src/deep/local', true)).toBe(false);
    expect(rules.ignores('src/docs/guide.md', false)).toBe(true);
    expect(rules.ignores('src/deep/docs/guide.md', false)).toBe(false);
  });

  it('matches ** patterns at any depth, and a name pattern listed after a path pattern still by name', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': '/dist\n**/generated/\ncache/**/*.bin\n*.tmp\n!keep.tmp\n' });
    const rules = IgnoreRules.none.enter(root, '');

    expect(rules.ignores('dist', true)).toBe(true);
    expect(rules.ignores('a/dist', true)).toBe(false);
    expect(rules.ignores('a/b/c/generated', true)).toBe(true);
    expect(rules.ignores('cache/x/y/z.bin', false)).toBe(true);
    expect(rules.ignores('x/cache/y/z.bin', false)).toBe(false);
    expect(rules.ignores('a/b/c/d/e.tmp', false)).toBe(true);
    expect(rules.ignores('a/b/c/d/keep.tmp', false)).toBe(false);
  });

  it('lets a deeper !pattern re-include what a shallower .gitignore ignores', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': '*.log\n', 'src/.gitignore': '!keep.log\n' });
    const atRoot = IgnoreRules.none.enter(root, '');
    const inSrc = atRoot.enter(root, 'src');
    expect(atRoot.ignores('keep.log', false)).toBe(true);
    expect(inSrc.ignores('src/keep.log', false)).toBe(false);
    expect(inSrc.ignores('src/other.log', false)).toBe(true);
  });

  it('tells whether a folder, or a folder it is inside, is ignored by the .gitignore files above it', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': 'build/\n', 'src/.gitignore': '/generated/\n', 'src/generated/x/y.ts': '', 'build/sub/z.js': '' });
    expect(IgnoreRules.ignoresFolder(root, '')).toBe(false);
    expect(IgnoreRules.ignoresFolder(root, 'src')).toBe(false);
    expect(IgnoreRules.ignoresFolder(root, 'build')).toBe(true);
    expect(IgnoreRules.ignoresFolder(root, 'build/sub')).toBe(true);
    expect(IgnoreRules.ignoresFolder(root, 'src/generated/x')).toBe(true);
    expect(IgnoreRules.ignoresFolder(root, 'src/x/generated')).toBe(false);
  });
});
