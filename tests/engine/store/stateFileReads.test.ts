import { link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppendLog } from '../../../engine/store/appendLog.js';
import { readJsonl } from '../../../engine/store/jsonl.js';
import { readStateFile, StateFileError } from '../../../engine/store/stateFile.js';
import { settlesWithin, takeThreadPool } from '../../support/busyThreadPool.js';
import { useTempFolders } from '../../support/tempFolder.js';

const posix = process.platform !== 'win32';

describe('state files read and appended without waiting on the thread pool', () => {
  const tempFolder = useTempFolders();

  it.runIf(posix)('reads a small file, and a JSON-lines log, while every thread of the pool is taken; a large one waits its turn', async () => {
    const folder = await tempFolder();
    const plan = path.join(folder, 'plan.md');
    const checks = path.join(folder, 'checks.jsonl');
    const large = path.join(folder, 'large.jsonl');
    await writeFile(plan, '# Plan\n\n- [ ] One\n');
    await writeFile(checks, '{"index":0}\n{"index":1}\n');
    const largeText = `${'{"index":2}\n'.repeat(20_000)}`;
    await writeFile(large, largeText);

    const pool = await takeThreadPool(await tempFolder());
    try {
      // Today's main opened, stat-ed, read and closed through the pool: nothing came back until it was free.
      const small = readStateFile(plan, { maxBytes: 1024 });
      expect(await settlesWithin(small)).toBe(true);
      expect((await small)?.toString('utf8')).toBe('# Plan\n\n- [ ] One\n');
      const log = readJsonl(checks, z.object({ index: z.number() }), 'checks.jsonl', { maxBytes: 1024 });
      expect(await settlesWithin(log)).toBe(true);
      expect((await log).records).toEqual([{ index: 0 }, { index: 1 }]);

      const big = readStateFile(large, { maxBytes: 1024 * 1024 });
      expect(await settlesWithin(big)).toBe(false);
      expect(pool.stillBusy()).toBe(true);
      await pool.release();
      expect((await big)?.toString('utf8')).toBe(largeText);
    } finally {
      await pool.release();
    }
  });

  it.runIf(posix)('appends a record to a log kept open while the pool is taken, and it is on disk when the append returns', async () => {
    const folder = await tempFolder();
    const file = path.join(folder, 'tool-log.jsonl');
    const log = new AppendLog({ file, schema: z.object({ id: z.number() }), label: 'tool-log.jsonl', keepOpen: true });
    await log.append({ id: 1 });
    const pool = await takeThreadPool(await tempFolder());
    try {
      const appended = log.append({ id: 2 });
      expect(await settlesWithin(appended)).toBe(true);
      await appended;
      expect(pool.stillBusy()).toBe(true);
    } finally {
      await pool.release();
    }
    expect(await readFile(file, 'utf8')).toBe('{"id":1}\n{"id":2}\n');
    await log.close();
  });
});

describe('state files refused as before', () => {
  const tempFolder = useTempFolders();

  it('returns null for a missing file and refuses one over the cap, naming both sizes', async () => {
    const folder = await tempFolder();
    expect(await readStateFile(path.join(folder, 'absent.md'), { maxBytes: 10 })).toBeNull();
    await writeFile(path.join(folder, 'plan.md'), 'x'.repeat(2048));
    await expect(readStateFile(path.join(folder, 'plan.md'), { maxBytes: 1000 })).rejects.toThrow(/plan\.md is 2\.0 KB, more than the 1000 B/);
    await writeFile(path.join(folder, 'big.md'), 'y'.repeat(100_000));
    await expect(readStateFile(path.join(folder, 'big.md'), { maxBytes: 99_999 })).rejects.toThrow(StateFileError);
    expect((await readStateFile(path.join(folder, 'big.md'), { maxBytes: 100_000 }))?.length).toBe(100_000);
  });

  it.runIf(posix)('refuses a symlink, a hard link with another name and a FIFO (without waiting on it), small or large', async () => {
    const folder = await tempFolder();
    const outside = path.join(await tempFolder(), 'secret.txt');
    await writeFile(outside, 'secret');
    await mkdir(path.join(folder, 'rpi'));
    await symlink(outside, path.join(folder, 'rpi', 'plan.md'));
    await link(outside, path.join(folder, 'rpi', 'research.md'));
    expect(spawnSync('mkfifo', [path.join(folder, 'rpi', 'checks.jsonl')]).status).toBe(0);

    await expect(readStateFile(path.join(folder, 'rpi', 'plan.md'), { maxBytes: 1024 })).rejects.toThrow(/plan\.md is a symlink/);
    await expect(readStateFile(path.join(folder, 'rpi', 'research.md'), { maxBytes: 1024 })).rejects.toThrow(/research\.md is a hard link shared with 1 other name/);
    await expect(readStateFile(path.join(folder, 'rpi', 'checks.jsonl'))).rejects.toThrow(/checks\.jsonl is a named pipe \(FIFO\)/);
  });
});
