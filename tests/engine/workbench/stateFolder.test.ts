import { execFileSync } from 'node:child_process';
import { link, mkdir, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderLockedError, openUsedWorkbench, openWorkbench } from '../../../engine/index.js';
import { readPlan } from '../../../engine/rpi/rpiState.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { autoApprovals, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { deadPid } from '../../support/processProbe.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/**
 * A cloned repository can hold anything in `.workbench/`: every case here is planted the way a hostile
 * repository would plant it, and each must be refused at open, with the outside untouched.
 */
describe('a planted .workbench', () => {
  const tempFolder = useTempFolders('rpi-hostile-state-');
  const open = useOpenedWorkbenches();

  async function projectAndOutside() {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeTree(root, { 'src/app.ts': 'export const app = 1;\n' });
    await writeTree(outside, { 'precious.txt': 'do not touch\n', 'rpi/research.md': 'outside research\n', 'rpi/plan.md': planText('Outside item') });
    return { root, outside };
  }

  async function listing(folder: string): Promise<Record<string, string>> {
    const entries = await readdir(folder, { recursive: true, withFileTypes: true });
    const files: Record<string, string> = {};
    for (const entry of entries.filter((e) => e.isFile())) {
      const file = path.join(entry.parentPath, entry.name);
      files[path.relative(folder, file)] = await readFile(file, 'utf8');
    }
    return files;
  }

  async function expectRefused(root: string, outside: string, pattern: RegExp) {
    const before = await listing(outside);
    await expect(open(root)).rejects.toThrow(pattern);
    expect(await listing(outside)).toEqual(before);
  }

  it('refuses .workbench as a symlink to a folder outside, creating and deleting nothing there', async () => {
    const { root, outside } = await projectAndOutside();
    await symlink(outside, path.join(root, '.workbench'));
    await expectRefused(root, outside, /\.workbench is a symlink \(to .*\)\..*remove/);
  });

  it('refuses .workbench as a symlink to a folder inside the project', async () => {
    const { root, outside } = await projectAndOutside();
    await mkdir(path.join(root, 'notes'));
    await symlink('notes', path.join(root, '.workbench'));
    await expectRefused(root, outside, /\.workbench is a symlink \(to notes\)/);
    expect(await readdir(path.join(root, 'notes'))).toEqual([]);
  });

  it('refuses .workbench as a plain file', async () => {
    const { root, outside } = await projectAndOutside();
    await writeFile(path.join(root, '.workbench'), 'x');
    await expectRefused(root, outside, /\.workbench is a file/);
  });

  for (const planted of ['.gitignore', 'conversation.jsonl', 'tool-log.jsonl', 'lock', 'rpi/research.md', 'rpi/plan.md', 'rpi/run.json', 'checkpoints/manifests/x.json']) {
    it(`refuses .workbench/${planted} as a symlink to an outside file, leaving that file as it was`, async () => {
      const { root, outside } = await projectAndOutside();
      const file = path.join(root, '.workbench', planted);
      await mkdir(path.dirname(file), { recursive: true });
      await symlink(path.join(outside, 'precious.txt'), file);
      await expectRefused(root, outside, new RegExp(`${planted.replace(/[.]/g, '\\.')} is a symlink`));
    });

    if (planted === 'lock') continue; // hard-linked into place by design: see the next test
    it(`refuses .workbench/${planted} as a hard link shared with an outside file`, async () => {
      const { root, outside } = await projectAndOutside();
      const file = path.join(root, '.workbench', planted);
      await mkdir(path.dirname(file), { recursive: true });
      await link(path.join(outside, 'precious.txt'), file);
      await expectRefused(root, outside, new RegExp(`${planted.replace(/[.]/g, '\\.')} is a hard link`));
    });
  }

  it('takes over a lock hard-linked to an outside file by unlinking its name, never writing through it', async () => {
    const { root, outside } = await projectAndOutside();
    await mkdir(path.join(root, '.workbench'));
    await link(path.join(outside, 'precious.txt'), path.join(root, '.workbench/lock'));
    const before = await listing(outside);
    await (await open(root)).close();
    expect(await listing(outside)).toEqual(before);
  });

  for (const folder of ['rpi', 'checkpoints', 'checkpoints/objects', 'runs']) {
    it(`refuses .workbench/${folder} as a symlink to an outside folder`, async () => {
      const { root, outside } = await projectAndOutside();
      const file = path.join(root, '.workbench', folder);
      await mkdir(path.dirname(file), { recursive: true });
      await symlink(outside, file);
      await expectRefused(root, outside, new RegExp(`${folder} is a symlink`));
    });
  }

  it('refuses a FIFO planted in .workbench without waiting on it', async () => {
    const { root, outside } = await projectAndOutside();
    await mkdir(path.join(root, '.workbench/rpi'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, '.workbench/rpi/plan.md')]);
    await expectRefused(root, outside, /plan\.md is a named pipe/);
  });

  it('opens a folder whose .workbench it made itself, again and again', async () => {
    const { root } = await projectAndOutside();
    for (let time = 0; time < 3; time += 1) await (await openWorkbench(root)).close();
    expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', 'checkpoints']);
  });
});

describe('opening a folder only to read it', () => {
  const tempFolder = useTempFolders('rpi-read-only-open-');

  it('answers null for a folder the workbench never used, creating nothing in it', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'src/app.ts': 'export const app = 1;\n' });
    expect(await openUsedWorkbench(root)).toBeNull();
    expect(await readdir(root)).toEqual(['src']);
  });

  it('opens a folder the workbench used before, as openWorkbench does', async () => {
    const root = await tempFolder();
    await (await openWorkbench(root)).close();
    const workbench = await openUsedWorkbench(root);
    expect(workbench?.folder).toBe(root);
    expect((await workbench!.request('workbench:snapshot')).conversation).toEqual([]);
    await workbench!.close();
  });

  it('refuses a planted .workbench link or file with the same sentence as openWorkbench', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await symlink(outside, path.join(root, '.workbench'));
    const refusal = await openWorkbench(root).then(
      () => '',
      (error: unknown) => (error as Error).message,
    );
    expect(refusal).toMatch(/\.workbench is a symlink/);
    await expect(openUsedWorkbench(root)).rejects.toThrow(refusal);
    await rm(path.join(root, '.workbench'));
    await writeFile(path.join(root, '.workbench'), 'x');
    await expect(openUsedWorkbench(root)).rejects.toThrow(/\.workbench is a file/);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('the state folder after it was opened', () => {
  const tempFolder = useTempFolders('rpi-hostile-held-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('keeps working in the folder it opened when .workbench is swapped for a symlink to outside', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeTree(root, { 'a.txt': 'a\n' });
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => autoApprovals });
    await rename(path.join(root, '.workbench'), path.join(root, 'moved-state'));
    await symlink(outside, path.join(root, '.workbench'));

    llm().enqueue(say('research'), say(planText('Only item')), say('done'), say('Summary.'));
    const run = await startRun(workbench, 'do it');
    expect((await run.finished).status).toBe('done');
    expect(await readdir(outside)).toEqual([]);
    const [conversation] = await readdir(path.join(root, 'moved-state/conversations'));
    const moved = path.join(root, 'moved-state/conversations', conversation!);
    expect(await readFile(path.join(moved, 'rpi/plan.md'), 'utf8')).toContain('- [x] 1. Only item');
    expect(await readFile(path.join(moved, 'conversation.jsonl'), 'utf8')).toContain('Summary.');
  });

  it('refuses to read a plan that was swapped for a symlink while the engine had the folder open', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeFile(path.join(outside, 'secret.md'), planText('Exfiltrate'));
    const workbench = await open(root);
    await mkdir(path.join(root, '.workbench/rpi'));
    await symlink(path.join(outside, 'secret.md'), path.join(root, '.workbench/rpi/plan.md'));
    await expect(workbench.request('rpi:read', { file: 'plan' })).rejects.toThrow(/plan\.md is a symlink/);
    await rm(path.join(root, '.workbench/rpi/plan.md'));
    await link(path.join(outside, 'secret.md'), path.join(root, '.workbench/rpi/plan.md'));
    await expect(readPlan(path.join(root, '.workbench'))).rejects.toThrow(/plan\.md is a hard link/);
  });
});

describe('writes in .workbench cut short by an engine that died', () => {
  const tempFolder = useTempFolders('rpi-cut-writes-');
  const open = useOpenedWorkbenches();
  const conversationRpi = '.workbench/conversations/c-0f1e2d3c-4b5a-4697-8877-665544332211/rpi';

  it('leave temp files swept once the folder is locked: a dead writer’s go, a live one’s stay, an open the lock refuses removes nothing', async () => {
    const root = await tempFolder();
    const dead = `.plan.md.${deadPid()}.0123abcd.tmp`;
    const live = `.plan.md.${process.pid}.89abcdef.tmp`;
    const holder = await open(root);
    // Written while another engine holds the folder: their writer may be alive on another machine, whatever this one's pids say.
    await writeTree(root, { [`.workbench/rpi/${dead}`]: 'torn', [`${conversationRpi}/${dead}`]: 'torn', [`${conversationRpi}/${live}`]: 'in progress' });
    await expect(openWorkbench(root)).rejects.toBeInstanceOf(FolderLockedError);
    expect((await readdir(path.join(root, conversationRpi))).sort()).toEqual([dead, live].sort());
    expect(await readdir(path.join(root, '.workbench/rpi'))).toEqual([dead]);

    await holder.close();
    await open(root);
    expect(await readdir(path.join(root, conversationRpi))).toEqual([live]);
    expect(await readdir(path.join(root, '.workbench/rpi'))).toEqual([]);
  });
});
