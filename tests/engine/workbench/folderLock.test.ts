import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderLockedError, openWorkbench } from '../../../engine/index.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';

const holdLockScript = `
const { openWorkbench } = await import(process.env.ENGINE_URL as string);
try {
  await openWorkbench(process.argv[2]);
  console.log('locked');
  setInterval(() => undefined, 1 << 30);
} catch (error) {
  console.log('refused: ' + error.message);
}
`;

interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: number;
  token: string;
}

const lockFile = (root: string) => path.join(root, '.workbench', 'lock');

async function readLock(root: string): Promise<LockHolder> {
  return JSON.parse(await readFile(lockFile(root), 'utf8')) as LockHolder;
}

async function writeLock(root: string, holder: Partial<LockHolder> & { pid: number }): Promise<void> {
  const full = { hostname: os.hostname(), startedAt: Date.now() - 60_000, token: 'someone-else', ...holder };
  await writeFile(lockFile(root), JSON.stringify(full));
}

let exitedPid: Promise<number> | undefined;

/** The pid of a process that has certainly exited (and been reaped); one per test file is enough. */
function deadPid(): Promise<number> {
  exitedPid ??= new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.once('error', reject);
    child.once('exit', () => (child.pid === undefined ? reject(new Error('no pid')) : resolve(child.pid)));
  });
  return exitedPid;
}

describe('folder lock', () => {
  const tempFolder = useTempFolders();
  const startChild = useEngineChildren(tempFolder);
  const open = useOpenedWorkbenches();

  it('refuses a second open in the same process, naming the holder', async () => {
    const root = await tempFolder();
    await open(root);

    const error = await openWorkbench(root).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(FolderLockedError);
    expect((error as FolderLockedError).holder.pid).toBe(process.pid);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${escape(root)} is already open in another RPI Workbench engine \\(process ${process.pid} on ${escape(os.hostname())}, ` +
          'since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)\\. Close it there, then try again\\.$',
      ),
    );
  });

  it('can be opened again after close()', async () => {
    const root = await tempFolder();
    const first = await openWorkbench(root);
    const firstToken = (await readLock(root)).token;
    await first.close();

    await open(root);
    const lock = await readLock(root);
    expect(lock.pid).toBe(process.pid);
    expect(lock.token).not.toBe(firstToken);
  });

  it('refuses us while another process holds it, and takes it over once that process is killed', async () => {
    const root = await tempFolder();
    const child = await startChild(holdLockScript, [root]);
    await child.waitForOutput('locked');

    const error = await openWorkbench(root).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FolderLockedError);
    expect((error as Error).message).toContain(`(process ${child.pid} on ${os.hostname()}`);
    expect((await readLock(root)).pid).toBe(child.pid);

    child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    await open(root);
    expect((await readLock(root)).pid).toBe(process.pid);
    expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', 'checkpoints', 'lock']);
  });

  it('a process that finds the folder open in ours is refused with our pid', async () => {
    const root = await tempFolder();
    await open(root);
    const child = await startChild(holdLockScript, [root]);
    const { stdout } = await child.exited;
    expect(stdout).toContain(`refused: ${root} is already open in another RPI Workbench engine (process ${process.pid} on`);
  });

  it.each([
    ['not JSON', '{"pid": 12'],
    ['the wrong shape', '{"pid":"twelve"}'],
    ['empty', ''],
  ])('takes over a lock file that is %s', async (_what, content) => {
    const root = await tempFolder();
    await (await openWorkbench(root)).close();
    await writeFile(lockFile(root), content);

    await open(root);
    expect((await readLock(root)).pid).toBe(process.pid);
  });

  it('takes over a lock whose process is gone', async () => {
    const root = await tempFolder();
    await (await openWorkbench(root)).close();
    await writeLock(root, { pid: await deadPid() });

    await open(root);
    expect((await readLock(root)).pid).toBe(process.pid);
  });

  it('respects a lock from another machine, whose process it cannot check', async () => {
    const root = await tempFolder();
    await (await openWorkbench(root)).close();
    await writeLock(root, { pid: await deadPid(), hostname: 'another-machine.example' });

    await expect(openWorkbench(root)).rejects.toThrow(/on another-machine\.example/);
  });

  it('close() does not delete a lock that is no longer ours', async () => {
    const root = await tempFolder();
    const workbench = await openWorkbench(root);
    await writeLock(root, { pid: process.ppid, token: 'taken-over' });

    await workbench.close();

    expect(await readLock(root)).toMatchObject({ pid: process.ppid, token: 'taken-over' });
  });

  it('two concurrent opens on a stale lock: exactly one wins', async () => {
    for (let round = 0; round < 15; round += 1) {
      const root = await tempFolder();
      await (await openWorkbench(root)).close();
      await writeLock(root, { pid: await deadPid() });

      const results = await Promise.allSettled([openWorkbench(root), openWorkbench(root)]);
      const winners = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const losers = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));

      expect(winners, `round ${round}`).toHaveLength(1);
      expect(losers[0]).toBeInstanceOf(FolderLockedError);
      expect((losers[0] as FolderLockedError).holder.pid).toBe(process.pid);
      expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', 'checkpoints', 'lock']);
      await winners[0]?.close();
      expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', 'checkpoints']);
    }
  });

  it('two processes racing for a stale lock: exactly one wins', async () => {
    const root = await tempFolder();
    await (await openWorkbench(root)).close();
    await writeLock(root, { pid: await deadPid() });

    const children = await Promise.all([startChild(holdLockScript, [root]), startChild(holdLockScript, [root])]);
    const outputs = await Promise.all(children.map((child) => child.waitForOutput('\n')));

    expect(outputs.filter((output) => output === 'locked\n')).toHaveLength(1);
    const loser = outputs.findIndex((output) => output.startsWith('refused: '));
    const winner = children[1 - loser];
    expect(outputs[loser]).toContain(`(process ${winner?.pid} on`);
    expect((await readLock(root)).pid).toBe(winner?.pid);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
