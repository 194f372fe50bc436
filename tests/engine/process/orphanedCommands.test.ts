import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { isGone, useProcessCleanup } from '../../support/processProbe.js';

/** A process as a crashed engine's command left it: its marker in the environment, its working folder `cwd`. */
async function leftRunning(cwd: string, engine: string): Promise<number> {
  const child = spawn('/bin/sh', ['-c', 'echo $$ > left.pid; exec sleep 300'], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', RPI_WORKBENCH_COMMAND: `${engine}.0f8e5f6a-command` },
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  for (;;) {
    const text = await readFile(path.join(cwd, 'left.pid'), 'utf8').catch(() => '');
    if (text.trim()) return Number(text);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(process.platform !== 'linux')('commands a crashed engine left running', () => {
  const tempFolder = useTempFolders('rpi-orphans-');
  const open = useOpenedWorkbenches();
  const cleanUp = useProcessCleanup();

  it('are ended when the folder is opened again, and said; the same marker outside the folder is left alone', async () => {
    const root = cleanUp(await tempFolder());
    const elsewhere = cleanUp(await tempFolder());
    const engine = 'a1b2c3d4e5f6';
    const inside = await leftRunning(root, engine);
    const outside = await leftRunning(elsewhere, engine);
    await mkdir(path.join(root, '.workbench'));
    // The engine that held the folder has died: its pid is one that ran and exited.
    const deadPid = spawnSync('/bin/true').pid;
    await writeFile(path.join(root, '.workbench', 'lock'), JSON.stringify({ pid: deadPid, hostname: os.hostname(), startedAt: 1, token: 'dead', engine }));

    const workbench = await open(root);

    expect(isGone(inside)).toBe(true);
    expect(isGone(outside)).toBe(false);
    expect((await workbench.request('workbench:snapshot')).warnings).toEqual([`Ended 1 process of commands that the engine which stopped on this folder (process ${deadPid}) had left running.`]);
  });
});
