import { describe, expect, it } from 'vitest';
import { listProcesses, processTree, stillRunning, type ProcessInfo } from '../../../engine/process/processTable.js';
import { poolRequestsDuring } from '../../support/busyThreadPool.js';

const entry = (pid: number, ppid: number, pgid: number, zombie = false): ProcessInfo => ({ pid, ppid, pgid, zombie, startTime: null });

describe('processTree', () => {
  const table = [
    entry(100, 1, 100), // the root, leading its own group
    entry(101, 100, 100), // its child
    entry(102, 1, 100), // an orphan still in the group (its parent exited)
    entry(103, 102, 103), // a child of the orphan that called setsid
    entry(104, 100, 104), // a child of the root that called setsid
    entry(105, 104, 104), // and its child
    entry(106, 100, 100, true), // a zombie child
    entry(200, 1, 200), // unrelated
    entry(201, 200, 200), // unrelated
  ];

  it('holds the root, its group, and every descendant of either, whatever group they moved to', () => {
    expect(processTree(table, 100).map((found) => found.pid).sort()).toEqual([100, 101, 102, 103, 104, 105]);
  });

  it('finds the group by its id after the root has gone', () => {
    const withoutRoot = table.filter((found) => found.pid !== 100);
    expect(processTree(withoutRoot, 100).map((found) => found.pid).sort()).toEqual([101, 102, 103]);
  });

  it('never holds this process or init', () => {
    const own = [entry(process.pid, 1, 300), entry(1, 0, 300), entry(301, process.pid, 999)];
    expect(processTree(own, 300).map((found) => found.pid)).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('listProcesses and stillRunning', () => {
  it('list this process with its parent and group', async () => {
    const self = (await listProcesses()).find((found) => found.pid === process.pid);
    expect(self).toMatchObject({ pid: process.pid, ppid: process.ppid, zombie: false });
    expect(await stillRunning(self ? [self] : [])).toEqual(self ? [self] : []);
  });

  it.skipIf(process.platform !== 'linux')('do not take a later process with the same pid for the one listed', async () => {
    const self = (await listProcesses()).find((found) => found.pid === process.pid);
    expect(self?.startTime).toMatch(/^\d+$/);
    expect(await stillRunning(self ? [{ ...self, startTime: '1' }] : [])).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('read the table with one thread-pool request, whatever the number of processes', async () => {
    let listed: ProcessInfo[] = [];
    // Today's main: four (open, stat, read, close) for every process, at every command's end.
    expect(await poolRequestsDuring(async () => (listed = await listProcesses()))).toBe(1);
    expect(listed.map((found) => found.pid)).toContain(process.pid);
    expect(await poolRequestsDuring(() => stillRunning(listed.slice(0, 20)))).toBe(0);
  });
});
