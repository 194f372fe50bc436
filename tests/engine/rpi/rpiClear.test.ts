import { open, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearRpiState, readPlan, readRpiState, readResearch, writePlan, writeResearch } from '../../../engine/rpi/rpiState.js';
import { StateFileError } from '../../../engine/store/stateFile.js';
import { openStateFolder } from '../../../engine/workbench/stateFolder.js';
import { planText } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { deadPid } from '../../support/processProbe.js';

describe('clearing rpi/', () => {
  const tempFolder = useTempFolders('rpi-clear-');

  it('forgets research, plan and record at once and leaves nothing behind in .workbench/', async () => {
    const root = await tempFolder();
    const stateDir = path.join(root, '.workbench');
    await writeTree(stateDir, { 'rpi/run.json': '{}\n', 'conversation.jsonl': '' });
    await writeResearch(stateDir, 'Research.\n');
    await writePlan(stateDir, planText('One'));

    await clearRpiState(stateDir);
    await clearRpiState(stateDir); // nothing left to clear: harmless

    expect(await readdir(stateDir)).toEqual(['conversation.jsonl']);
    expect(await readRpiState(stateDir)).toMatchObject({ hasResearch: false, hasPlan: false });
  });

  it('removes an rpi/ planted as a symlink without following it', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeTree(outside, { 'plan.md': planText('Outside'), 'precious.txt': 'keep\n' });
    const stateDir = path.join(root, '.workbench');
    await writeTree(stateDir, { 'conversation.jsonl': '' });
    await symlink(outside, path.join(stateDir, 'rpi'));

    await clearRpiState(stateDir);

    expect(await readdir(stateDir)).toEqual(['conversation.jsonl']);
    expect((await readdir(outside)).sort()).toEqual(['plan.md', 'precious.txt']);
    expect(await readFile(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep\n');
  });

  it('sweeps at open what a crashed engine’s clear left, and leaves a running engine’s and anything else', async () => {
    const root = await tempFolder();
    const dead = `.rpi.${deadPid()}.0a1b2c3d.cleared`;
    const live = `.rpi.${process.ppid}.0a1b2c3d.cleared`;
    await writeTree(path.join(root, '.workbench'), {
      [`${dead}/plan.md`]: planText('Half cleared'),
      [`${dead}/.plan.md.1.0a1b2c3d.tmp`]: 'torn',
      [`${live}/plan.md`]: planText('Being cleared'),
      '.rpi.12.nothex00.cleared/plan.md': planText('Not an engine name'),
      'rpi/plan.md': planText('Current'),
    });

    const state = await openStateFolder(root);
    await state.close();

    expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', '.rpi.12.nothex00.cleared', live, 'rpi'].sort());
    expect(await readPlan(path.join(root, '.workbench'))).toBe(planText('Current'));
  });
});

describe('reading research and plans', () => {
  const tempFolder = useTempFolders('rpi-cap-');

  it('refuses a research.md or plan.md over 8 MB, before reading any of it', async () => {
    const stateDir = path.join(await tempFolder(), '.workbench');
    await writeTree(stateDir, { 'rpi/research.md': '', 'rpi/plan.md': '' });
    for (const [name, bytes] of [['plan.md', 4 * 1024 ** 3], ['research.md', 8 * 1024 * 1024 + 1]] as const) {
      const handle = await open(path.join(stateDir, 'rpi', name), 'r+');
      await handle.truncate(bytes);
      await handle.close();
    }

    await expect(readRpiState(stateDir)).rejects.toThrow(StateFileError);
    await expect(readPlan(stateDir)).rejects.toThrow(
      'The workbench state file plan.md is 4.0 GB, more than the 8.0 MB the workbench reads, so it was not read. Remove it and try again.',
    );
    await expect(readResearch(stateDir)).rejects.toThrow('research.md is 8,388,609 bytes, more than the 8,388,608 bytes the workbench reads');

    const handle = await open(path.join(stateDir, 'rpi', 'research.md'), 'r+');
    await handle.truncate(8 * 1024 * 1024);
    await handle.close();
    expect((await readResearch(stateDir))?.length).toBe(8 * 1024 * 1024);
  });
});
