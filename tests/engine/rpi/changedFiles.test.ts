import type * as NodeFs from 'node:fs';
import type * as NodeFsPromises from 'node:fs/promises';
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changedFilesSince } from '../../../engine/rpi/changedFiles.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Each lstat the manifest makes, synchronous or through the thread pool, with its path; `counted` wraps one. */
const { calls, counted } = vi.hoisted(() => {
  const calls: { fn: string; at: string }[] = [];
  const counted = <F extends (...args: never[]) => unknown>(fn: string, original: F): F =>
    ((...args: Parameters<F>) => {
      calls.push({ fn, at: String(args[0]) });
      return original(...args);
    }) as F;
  return { calls, counted };
});

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const lstatSync = counted('lstatSync', fs.lstatSync);
  return { ...fs, lstatSync, default: { ...fs, lstatSync } };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFsPromises>();
  const lstat = counted('lstat', fs.lstat);
  return { ...fs, lstat, default: { ...fs, lstat } };
});

describe("the summary's list of changed files", () => {
  const tempFolder = useTempFolders('rpi-changed-files-');
  let root = '';
  let since = 0;

  beforeEach(async () => {
    root = await tempFolder();
    const old = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`src/old${n}.ts`, `export const n = ${n};\n`]));
    await writeTree(root, { ...old, '.gitignore': 'dist/\n', 'src/edited.ts': 'before\n', 'dist/out.js': 'old\n' });
    since = Date.now() + 60_000; // everything written so far is older than the run
    const hourAgo = new Date(since - 3_600_000);
    for (const file of [...Object.keys(old), '.gitignore', 'src/edited.ts', 'dist/out.js']) await utimes(path.join(root, file), hourAgo, hourAgo);
    const inRun = new Date(since + 1_000);
    await writeFile(path.join(root, 'src/edited.ts'), 'after, longer\n');
    await utimes(path.join(root, 'src/edited.ts'), inRun, inRun);
    await writeFile(path.join(root, 'dist/out.js'), 'rebuilt\n');
    await utimes(path.join(root, 'dist/out.js'), inRun, inRun);
    const log = { id: 1, runId: 'r1', phase: 'implement', tool: 'delete_file', args: { path: 'src/removed.ts' }, result: 'deleted', ok: true, durationMs: 1, ts: since + 2_000 };
    await writeFile(path.join(root, 'tool-log.jsonl'), `${JSON.stringify(log)}\n`);
    calls.length = 0;
  });

  it('names the files changed since the run began and those the tools deleted, leaving out what .gitignore hides', async () => {
    const changes = await changedFilesSince(root, path.join(root, 'tool-log.jsonl'), since);

    expect(changes).toEqual([
      { path: 'src/edited.ts', change: 'changed', size: 'after, longer\n'.length },
      { path: 'src/removed.ts', change: 'deleted' },
    ]);
  });

  it('looks at each walked file with one synchronous lstat, and through the thread pool only at the deleted ones', async () => {
    await changedFilesSince(root, path.join(root, 'tool-log.jsonl'), since);

    const relative = (at: string) => path.relative(root, at).split(path.sep).join('/');
    const looked = (fn: string) => calls.filter((call) => call.fn === fn).map((call) => relative(call.at));
    expect(looked('lstatSync')).toHaveLength(33); // 30 old files, src/edited.ts, .gitignore, tool-log.jsonl
    expect(new Set(looked('lstatSync')).size).toBe(33);
    expect(looked('lstat')).toEqual(['src/removed.ts']);
  });
});
