import * as fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateFiles } from '../../../../engine/tools/search/candidateFiles.js';
import { MatcherPool } from '../../../../engine/tools/search/matcherPool.js';
import type { BatchResult, MatchBatch, MatchJob } from '../../../../engine/tools/search/matchMessages.js';
import { runMatchWorker } from '../../../../engine/tools/search/matchWorker.js';
import { runSearch, warmSearchWorkers } from '../../../../engine/tools/search/runSearch.js';
import { compilePattern } from '../../../../engine/tools/search/searchPattern.js';
import { searchWorkersStarted } from '../../../../engine/tools/search/workerShelf.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

/** 3 folders of 4 files each, every file with one matching line. */
const tree = Object.fromEntries(['a', 'b', 'c'].flatMap((folder) => [1, 2, 3, 4].map((n) => [`${folder}/f${n}.txt`, `line\nneedle ${folder}${n}\n`])));
const files = Object.keys(tree);

async function* listed(paths: string[]): AsyncGenerator<string[]> {
  yield paths;
}

/**
 * The worker's body run on this thread with an fs that counts its calls, fed batches by hand;
 * `before` runs ahead of each call, to change the folder at a chosen moment.
 */
function countingWorker(before: (name: string, args: unknown[]) => void = () => {}) {
  const calls: Record<string, number> = {};
  const counting = new Proxy(fs, {
    get(target, name: string) {
      const value = target[name as keyof typeof fs];
      if (typeof value !== 'function' || !name.endsWith('Sync')) return value;
      return (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        before(name, args);
        return (value as (...args: unknown[]) => unknown)(...args);
      };
    },
  });
  let onBatch: (batch: MatchBatch) => void = () => {};
  const replies: BatchResult[] = [];
  const port = { on: (_event: string, listener: (batch: MatchBatch) => void) => (onBatch = listener), postMessage: (reply: BatchResult) => replies.push(reply) };
  runMatchWorker({ fs: counting, port: port as never, data: { progress: new SharedArrayBuffer(12), epoch: Date.now() } });
  return { calls, replies, search: (batch: MatchBatch) => onBatch(batch) };
}

describe('what a search costs', () => {
  const tempFolder = useTempFolders('rpi-search-work-');

  it('opens each file once, and checks where a folder really is once per folder, not once per file', async () => {
    const root = await tempFolder();
    await writeTree(root, tree);
    const worker = countingWorker();
    const job: MatchJob = { id: 1, root, regex: compilePattern('needle'), limit: 100, maxLineChars: 300, sniffLength: 8000, chunkBytes: 1 << 20, claims: new SharedArrayBuffer(1) };

    worker.search({ id: 0, job, first: 0, files, shared: false });

    expect(worker.replies).toEqual([expect.objectContaining({ taken: true, searched: 12, unreadable: 0 })]);
    expect(worker.replies[0]!.matches.map((match) => match.path)).toEqual(files);
    // the 12 files and their 3 folders opened; where each folder really is read once, each file's kind and links once
    expect(worker.calls).toEqual({ openSync: 15, readlinkSync: 3, fstatSync: 12, readSync: 12, closeSync: 15 });
  });

  it.each([
    ['matches', 'needle OUTSIDE\n'],
    ['does not match', 'hay OUTSIDE\n'],
  ])('finds what the folder holds when it is swapped for a symlink after its check, whether the file outside %s', async (_case, outsideText) => {
    const base = await tempFolder();
    await writeTree(base, { 'outside/secret.txt': outsideText, 'proj/box/secret.txt': 'needle inside\n' });
    const root = path.join(base, 'proj');
    let swapped = false;
    // once the worker holds box (its check done), box becomes a symlink to the outside folder, just before the file is opened
    const worker = countingWorker((name, args) => {
      if (swapped || name !== 'openSync' || !String(args[0]).endsWith('.txt')) return;
      swapped = true;
      fs.renameSync(path.join(root, 'box'), path.join(root, 'box.real'));
      fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'box'));
    });
    const job: MatchJob = { id: 1, root, regex: compilePattern('needle'), limit: 100, maxLineChars: 300, sniffLength: 8000, chunkBytes: 1 << 20, claims: new SharedArrayBuffer(1) };

    worker.search({ id: 0, job, first: 0, files: ['box/secret.txt'], shared: false });

    // whatever the file outside holds, the result is the held folder's own file's: it says nothing of the outside one
    expect(swapped).toBe(true);
    expect(worker.replies[0]).toMatchObject({ searched: 1, binary: 0, unreadable: 0, matches: [{ path: 'box/secret.txt', lines: [1], texts: ['needle inside'] }] });
  });

  it('asks a large file its size once and reads it in one call, however large, below the piece size', async () => {
    const root = await tempFolder();
    const line = `${'x'.repeat(99)}\n`;
    await writeTree(root, { 'big.txt': `${line.repeat(20_000)}needle\n${line.repeat(100)}`, 'small.txt': 'needle\n' });
    const worker = countingWorker();
    const job: MatchJob = { id: 1, root, regex: compilePattern('needle'), limit: 100, maxLineChars: 300, sniffLength: 8000, chunkBytes: 4 << 20, claims: new SharedArrayBuffer(1) };

    worker.search({ id: 0, job, first: 0, files: ['big.txt', 'small.txt'], shared: false });

    expect(worker.replies[0]!.matches).toEqual([
      { path: 'big.txt', lines: [20_001], texts: ['needle'] },
      { path: 'small.txt', lines: [1], texts: ['needle'] },
    ]);
    // 2 MB: one fstat (its kind, links and size) and one read each, where the size was asked again after a first partial read
    expect(worker.calls).toMatchObject({ fstatSync: 2, readSync: 2 });
  });

  it('decodes and runs the regex on only the files holding one of an alternation’s texts', async () => {
    const root = await tempFolder();
    const plain = Object.fromEntries(Array.from({ length: 20 }, (_, n) => [`src/f${n}.ts`, `const value${n} = load(${n});\n`]));
    await writeTree(root, { ...plain, 'src/todo.ts': '// TODO: split\n', 'src/fixme.ts': 'x(); // FIXME later\n', 'src/both.ts': 'TODO FIXME\n' });
    const worker = countingWorker();
    const job: MatchJob = { id: 1, root, regex: compilePattern('TODO|FIXME'), limit: 100, maxLineChars: 300, sniffLength: 8000, chunkBytes: 1 << 20, claims: new SharedArrayBuffer(1) };
    const decoded: string[] = [];
    const toString = Buffer.prototype.toString;
    Buffer.prototype.toString = function (this: Buffer, ...args: Parameters<Buffer['toString']>) {
      const text = toString.apply(this, args);
      decoded.push(text);
      return text;
    } as Buffer['toString'];
    try {
      worker.search({ id: 0, job, first: 0, files: Object.keys({ ...plain, 'src/todo.ts': 1, 'src/fixme.ts': 1, 'src/both.ts': 1 }), shared: false });
    } finally {
      Buffer.prototype.toString = toString;
    }

    expect(worker.replies[0]!.matches.map((match) => match.path)).toEqual(['src/todo.ts', 'src/fixme.ts', 'src/both.ts']);
    expect(worker.replies[0]!.searched).toBe(23);
    // the three files holding TODO or FIXME are decoded, none of the twenty without
    expect(decoded).toEqual(['// TODO: split\n', 'x(); // FIXME later\n', 'TODO FIXME\n']);
  });

  it('walks files to the workers a folder at a time: one step of the walk per folder, not one per file', async () => {
    const root = await tempFolder();
    const many = (folder: string) => Object.fromEntries(Array.from({ length: 200 }, (_, n) => [`${folder}/f${n}.txt`, 'needle\n']));
    await writeTree(root, { ...many('a'), ...many('a/b'), ...many('c'), '.gitignore': '*.log\n', 'c/skip.log': 'needle\n' });

    const steps: string[][] = [];
    for await (const run of candidateFiles({ root, from: '', signal: new AbortController().signal })) steps.push(run);

    // the root's own run is its .gitignore; 601 files in 4 steps, where a step per file took 601
    expect(steps.map((run) => run.length)).toEqual([1, 200, 200, 200]);
    expect(steps.map((run) => run[0])).toEqual(['.gitignore', 'a/b/f0.txt', 'a/f0.txt', 'c/f0.txt']);
    expect(steps.flat()).not.toContain('c/skip.log');
  });

  it('a search closed with batches still queued (it has its max_results) gives its workers back, and the next starts none', async () => {
    const root = await tempFolder();
    await writeTree(root, tree);
    const pool = () => new MatcherPool({ root, regex: compilePattern('needle'), limit: 100, workers: 2, maxLineChars: 300, sniffLength: 8000, chunkBytes: 1 << 20, signal: new AbortController().signal });
    const first = pool();
    const searched = Array.from({ length: 32 }, (_, batch) => first.search(files, batch * files.length));
    const settled = Promise.allSettled(searched);
    await searched[0];
    await first.close();
    expect((await settled).filter((outcome) => outcome.status === 'rejected').length).toBeGreaterThan(0);

    const started = searchWorkersStarted();
    const next = pool();
    expect((await next.search(files, 0)).searched).toBe(12);
    await next.close();
    expect(searchWorkersStarted()).toBe(started);
  });

  it('a worker held up on one file holds up none of the batches sent after it: the other searches them all', async () => {
    const root = await tempFolder();
    // a line on which `(a+)+$` backtracks for ever, so the worker that takes it never finishes it
    await writeTree(root, { ...tree, 'slow/stuck.txt': `${'a'.repeat(40)}b\n` });
    const controller = new AbortController();
    const pool = new MatcherPool({ root, regex: compilePattern('(a+)+$'), limit: 100, workers: 2, maxLineChars: 300, sniffLength: 8000, chunkBytes: 1 << 20, signal: controller.signal });
    const stuck = pool.search(['slow/stuck.txt'], 0);
    stuck.catch(() => {});

    // each worker once had half of these queued behind what it was given, the held-up one's waiting on it for
    // ever; more than a held-up worker may have waiting (64), so past them the others go on without it
    const after: Promise<BatchResult>[] = [];
    for (let batch = 0; batch < 80; batch += 1) {
      await pool.room();
      after.push(pool.search(files, 1 + batch * files.length));
    }

    expect((await Promise.all(after)).map((result) => result.searched)).toEqual(Array(80).fill(12));
    expect(pool.slowest()?.path).toBe('slow/stuck.txt');
    controller.abort(new Error('stopped by the test'));
    await expect(stuck).rejects.toThrow('stopped by the test');
  });

  it('workers warmed while the model works are the ones the first search uses', async () => {
    const root = await tempFolder();
    await writeTree(root, tree);
    warmSearchWorkers();
    const warmed = searchWorkersStarted();
    const outcome = await runSearch({ root, files: listed(files), regex: compilePattern('needle'), maxResults: 100, signal: new AbortController().signal });
    expect(outcome.matches).toBe(12);
    expect(searchWorkersStarted()).toBe(warmed);
  });
});
