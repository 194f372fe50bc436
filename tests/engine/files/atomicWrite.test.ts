import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTempFiles, writeFileAtomic } from '../../../engine/files/atomicWrite.js';
import { poolRequestsDuring } from '../../support/busyThreadPool.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('writeFileAtomic', () => {
  const tempFolder = useTempFolders();

  it('creates a file with the given content and nothing else', async () => {
    const dir = await tempFolder();
    const file = path.join(dir, 'plan.md');
    await writeFileAtomic(file, '# Execution Plan\n');
    expect(await readFile(file, 'utf8')).toBe('# Execution Plan\n');
    expect(await readdir(dir)).toEqual(['plan.md']);
  });

  it('replaces the content of an existing file, leaving no temp file behind', async () => {
    const dir = await tempFolder();
    const file = path.join(dir, 'research.md');
    await writeFile(file, 'old content that is longer than the new one\n');
    await writeFileAtomic(file, 'new\n');
    await writeFileAtomic(file, new TextEncoder().encode('newest\n'));
    expect(await readFile(file, 'utf8')).toBe('newest\n');
    expect(await readdir(dir)).toEqual(['research.md']);
  });

  it.skipIf(process.platform === 'win32')('goes to the thread pool only to wait on the disk: the two fsyncs, for a small write', async () => {
    const dir = await tempFolder();
    const file = path.join(dir, 'plan.md');
    await writeFile(file, 'old\n');
    const small = await poolRequestsDuring(() => writeFileAtomic(file, '- [x] One\n'));
    // Today's main: open, write, fsync, close, rename, open, fsync and close, each through the pool.
    expect(small).toBe(2);
    const large = 'x'.repeat(3 * 1024 * 1024);
    expect(await poolRequestsDuring(() => writeFileAtomic(file, large))).toBeGreaterThan(2);
    expect(await readFile(file, 'utf8')).toBe(large);
  });

  it.skipIf(process.platform === 'win32')('creates the file with the requested mode', async () => {
    const dir = await tempFolder();
    const file = path.join(dir, 'settings.json');
    await writeFileAtomic(file, '{}', 0o600);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('never shows a reader a partly written file', async () => {
    const dir = await tempFolder();
    const file = path.join(dir, 'plan.md');
    const versions = ['a'.repeat(200_000), 'b'.repeat(300_000), 'c'.repeat(100_000)];
    await writeFileAtomic(file, versions[0] ?? '');
    const seen = new Set<string>();
    let writing = true;
    const reader = (async () => {
      while (writing) seen.add(await readFile(file, 'utf8'));
    })();
    for (const version of versions) await writeFileAtomic(file, version);
    writing = false;
    await reader;
    for (const content of seen) expect(versions).toContain(content);
  });

  it('fails without leaving a temp file when the target cannot be replaced', async () => {
    const dir = await tempFolder();
    const target = path.join(dir, 'taken');
    await mkdir(target);
    await writeFile(path.join(target, 'inside.txt'), 'x');
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readdir(target)).toEqual(['inside.txt']);
  });

  it('fails when the folder does not exist', async () => {
    const dir = await tempFolder();
    await expect(writeFileAtomic(path.join(dir, 'missing', 'plan.md'), 'x')).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('removeStaleTempFiles', () => {
  const tempFolder = useTempFolders();
  const exitedPid = (): number => {
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    if (pid === undefined) throw new Error('could not start a child node process');
    return pid;
  };

  it('removes the temp files of writers that are no longer running and nothing else', async () => {
    const dir = await tempFolder();
    const dead = exitedPid();
    const stale = [`.plan.md.${dead}.0a1b2c3d.tmp`, `.research.md.${dead}.ffffffff.tmp`];
    const kept = [
      `.plan.md.${process.pid}.0a1b2c3d.tmp`, // this process: may be a write in progress
      `.plan.md.${process.ppid}.0a1b2c3d.tmp`, // a live process
      `.plan.md.${dead}.notahex1.tmp`, // not the writer's name pattern
      `plan.md.${dead}.0a1b2c3d.tmp`,
      'plan.md',
    ];
    await writeTree(dir, Object.fromEntries([...stale, ...kept].map((name) => [name, 'x'])));
    expect((await removeStaleTempFiles(dir)).sort()).toEqual(stale.sort());
    expect((await readdir(dir)).sort()).toEqual(kept.sort());
  });

  it('finds nothing to remove in a folder that does not exist', async () => {
    expect(await removeStaleTempFiles(path.join(await tempFolder(), 'missing'))).toEqual([]);
  });
});
