import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { killProcessTree } from '../../../engine/process/killProcessTree.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { processTreeScript, recordedPids, survivors, useProcessCleanup } from '../../support/processProbe.js';

/** Starts the tree of processTreeScript the way runShellCommand does (own group) and resolves once it is complete. */
async function startTree(root: string, ignoreTerm: boolean): Promise<number> {
  const child = spawn('/bin/sh', ['-c', await processTreeScript(root, { ignoreTerm })], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  const [ready] = (await once(child.stdout, 'data')) as [string];
  expect(ready).toBe('ready\n');
  expect(child.pid).toBeDefined();
  return child.pid ?? 0;
}

describe.skipIf(process.platform === 'win32')('killProcessTree', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  it('stops the shell, its group, and descendants that left the group with setsid', async () => {
    const root = cleanUp(await tempFolder());
    const pid = await startTree(root, false);
    expect(Object.keys(await recordedPids(root)).sort()).toEqual(['background', 'detached', 'escaped', 'node', 'shell']);

    expect(await killProcessTree({ pid, graceMs: 5000 })).toBeGreaterThanOrEqual(5);
    expect(await survivors(root)).toEqual({});
  });

  it('uses SIGKILL after the grace on processes that ignore SIGTERM', async () => {
    const root = cleanUp(await tempFolder());
    const pid = await startTree(root, true);

    await killProcessTree({ pid, graceMs: 200 });
    expect(await survivors(root)).toEqual({});
  });

  it('after the root has exited, stops what is left of its group', async () => {
    const root = cleanUp(await tempFolder());
    const child = spawn('/bin/sh', ['-c', 'sleep 300 & echo $! > background.pid'], { cwd: root, detached: true, stdio: 'ignore' });
    await once(child, 'exit');
    expect(Object.keys(await survivors(root))).toEqual(['background']);

    expect(await killProcessTree({ pid: child.pid ?? 0, rootExited: true })).toBe(1);
    expect(await survivors(root)).toEqual({});
  });

  it('after the root has exited, leaves alone a process that now has its pid', async () => {
    const root = cleanUp(await tempFolder());
    const other = spawn('/bin/sh', ['-c', 'echo $$ > other.pid; echo ready; exec sleep 300'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    await once(other.stdout, 'data');

    expect(await killProcessTree({ pid: other.pid ?? 0, rootExited: true })).toBe(0);
    expect(Object.keys(await survivors(root))).toEqual(['other']);
  });

  it('finds nothing to stop when the tree is already gone', async () => {
    const child = spawn('/bin/sh', ['-c', 'exit 0'], { detached: true, stdio: 'ignore' });
    await once(child, 'exit');
    expect(await killProcessTree({ pid: child.pid ?? 0 })).toBe(0);
  });
});
