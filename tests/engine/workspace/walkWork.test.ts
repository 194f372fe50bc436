import type * as NodeFs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { candidateFiles } from '../../../engine/tools/search/candidateFiles.js';
import { buildFileTree } from '../../../engine/workspace/fileTree.js';
import { countFiles } from '../../../engine/workspace/walkFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Every call the walk makes to node:fs that touches the disk, by function, with its path. */
const calls = vi.hoisted(() => [] as { fn: string; at: string }[]);

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const counted = <F extends (...args: never[]) => unknown>(fn: string, original: F): F =>
    ((...args: Parameters<F>) => {
      calls.push({ fn, at: String(args[0]) });
      return original(...args);
    }) as F;
  const names = ['readdir', 'readdirSync', 'readFile', 'readFileSync', 'lstat', 'lstatSync', 'stat', 'statSync', 'open', 'openSync'] as const;
  const wrapped = Object.fromEntries(names.map((name) => [name, counted(name, fs[name] as (...args: never[]) => unknown)]));
  return { ...fs, ...wrapped, default: { ...fs, ...wrapped } };
});

/** 6 folders walked, one more that the root .gitignore hides, 2 .gitignore files, 12 files seen. */
const tree = {
  '.gitignore': 'node_modules/\n*.log\n',
  'README.md': '',
  'debug.log': '',
  'node_modules/dep/index.js': '',
  'src/a.ts': '',
  'src/b.ts': '',
  'src/lib/c.ts': '',
  'src/lib/d.ts': '',
  'src/lib/.gitignore': 'generated/\n',
  'src/lib/generated/e.ts': '',
  'docs/guide.md': '',
  'docs/img/logo.svg': '',
  'test/a.test.ts': '',
  'test/b.test.ts': '',
  'test/fixtures/data.json': '',
};
const walkedFolders = ['', 'docs', 'docs/img', 'src', 'src/lib', 'test', 'test/fixtures'];

describe('what a walk costs: one listing per folder, one read per .gitignore, nothing per file', () => {
  const tempFolder = useTempFolders('rpi-walk-work-');
  let root = '';

  beforeEach(async () => {
    root = await tempFolder();
    await writeTree(root, tree);
    calls.length = 0;
  });

  const relative = (at: string) => path.relative(root, at).split(path.sep).join('/');
  const made = (fn: string) => calls.filter((call) => call.fn === fn).map((call) => relative(call.at));

  it('countFiles lists each folder once, on the walking thread, and never looks at a file', async () => {
    expect(await countFiles(root)).toBe(12);
    expect(made('readdirSync').sort()).toEqual(walkedFolders);
    // Each .gitignore is opened (without following a link, see readGitignore) and read through its descriptor.
    expect(made('openSync').sort()).toEqual(['.gitignore', 'src/lib/.gitignore']);
    expect(calls.filter((call) => !['readdirSync', 'openSync'].includes(call.fn))).toEqual([]);
  });

  it('the file tree costs the same walk, and no stat until sizes are asked for', async () => {
    const top = await buildFileTree({ root, from: '' });
    expect(top.fileCount).toBe(12);
    expect(made('readdirSync').sort()).toEqual(walkedFolders);
    expect(calls.filter((call) => call.fn.includes('stat') || (call.fn.startsWith('open') && !call.at.endsWith('.gitignore')))).toEqual([]);
  });

  it("a search's walk lists each folder once, on the walking thread (the thread pool's listers would take the cores its workers search on), and never one a .gitignore hides", async () => {
    const files: string[] = [];
    for await (const run of candidateFiles({ root, from: '', signal: new AbortController().signal })) files.push(...run);
    expect(files).toHaveLength(12);
    expect(made('readdirSync').sort()).toEqual(walkedFolders);
    expect(made('readdir')).toEqual([]);
  });
});
