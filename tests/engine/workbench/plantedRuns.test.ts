import { execFileSync } from 'node:child_process';
import { link, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Workbench } from '../../../engine/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, planText } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';
import { oneStep } from '../../support/planHistory.js';

/** How messages name the folder's one conversation: `.workbench/conversations/<id>`. */
const shownConversation = (root: string) => path.relative(root, conversationDir(root));


/**
 * `.workbench/runs/` (the plan history) is state like the rest of `.workbench/`: whatever a hostile
 * repository or process plants there is refused with a sentence, never followed, read through or written through.
 */
describe('a planted .workbench/runs', () => {
  const tempFolder = useTempFolders('rpi-hostile-runs-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function projectAndOutside() {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeTree(root, { 'a.txt': 'a\n' });
    await writeTree(outside, { 'secret.md': 'outside secret\n', 'plan.md': planText('Outside item'), 'research.md': 'outside research\n' });
    return { root, outside };
  }

  /** A workbench after two requests: the first one's run kept in runs/<first>/. */
  async function afterTwoRequests(root: string): Promise<{ workbench: Workbench; first: string; second: string }> {
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...oneStep('First'), ...oneStep('Second'));
    const first = await startRun(workbench, 'One');
    await first.finished;
    const second = await startRun(workbench, 'Two');
    await second.finished;
    return { workbench, first: first.messageId, second: second.messageId };
  }

  it('refuses at open a runs/<id> planted as a symlink to an outside folder, touching nothing there', async () => {
    const { root, outside } = await projectAndOutside();
    await mkdir(path.join(conversationDir(root), 'runs'), { recursive: true });
    await symlink(outside, path.join(conversationDir(root), 'runs/m-planted'));
    await expect(open(root)).rejects.toThrow(/\.workbench\/runs\/m-planted is a symlink \(to .*\)\..*remove/);
    expect(await readdir(outside)).toEqual(['plan.md', 'research.md', 'secret.md']);
  });

  it('refuses to read a kept plan swapped for a symlink, a hard link or a FIFO while the folder was open', async () => {
    const { root, outside } = await projectAndOutside();
    const { workbench, first } = await afterTwoRequests(root);
    const kept = path.join(conversationDir(root), 'runs', first, 'plan.md');

    await rm(kept);
    await symlink(path.join(outside, 'secret.md'), kept);
    await expect(workbench.request('session:run-file', { messageId: first, file: 'plan' })).rejects.toThrow('The workbench state file plan.md is a symlink; the workbench never follows links in .workbench/. Remove it and try again.');
    const snapshot = await workbench.request('workbench:snapshot');
    expect(Object.keys(snapshot.runs ?? {})).not.toContain(first);
    expect(snapshot.warnings).toContain(
      'The workbench state file plan.md is a symlink; the workbench never follows links in .workbench/. Remove it and try again. The plan history of that request is not shown.',
    );

    await rm(kept);
    await link(path.join(outside, 'secret.md'), kept);
    await expect(workbench.request('session:run-file', { messageId: first, file: 'plan' })).rejects.toThrow('plan.md is a hard link shared with 1 other name');

    await rm(kept);
    execFileSync('mkfifo', [kept]);
    await expect(workbench.request('session:run-file', { messageId: first, file: 'plan' })).rejects.toThrow('plan.md is a named pipe (FIFO)');
    expect((await workbench.request('workbench:snapshot')).warnings.at(-1)).toMatch(/plan\.md is a named pipe \(FIFO\).*not shown\.$/);
    expect(await readFile(path.join(outside, 'secret.md'), 'utf8')).toBe('outside secret\n');
  });

  it('refuses a runs/<id> folder swapped for a symlink, and undo removes the link, not what it points to', async () => {
    const { root, outside } = await projectAndOutside();
    const { workbench, first, second } = await afterTwoRequests(root);
    llm().enqueue(...oneStep('Third'));
    await (await startRun(workbench, 'Three')).finished;
    const keptSecond = path.join(conversationDir(root), 'runs', second);
    await rm(keptSecond, { recursive: true });
    await symlink(outside, keptSecond);

    await expect(workbench.request('session:run-file', { messageId: second, file: 'plan' })).rejects.toThrow(
      `${shownConversation(root)}/runs/${second} is a symlink, not a folder the workbench made; the workbench never follows links in .workbench/. Remove it and try again.`,
    );
    expect((await workbench.request('workbench:snapshot')).runs?.[second]).toBeUndefined();

    await workbench.request('session:undo', { messageId: second });

    expect(await readdir(path.join(conversationDir(root), 'runs'))).toEqual([first]);
    expect(await readdir(outside)).toEqual(['plan.md', 'research.md', 'secret.md']);
  });

  it('refuses a new request, changing nothing, when the folder its predecessor’s run goes to is a planted symlink', async () => {
    const { root, outside } = await projectAndOutside();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...oneStep('First'));
    const first = await startRun(workbench, 'One');
    await first.finished;
    await mkdir(path.join(conversationDir(root), 'runs'));
    await symlink(outside, path.join(conversationDir(root), 'runs', first.messageId));

    await expect(startRun(workbench, 'Two')).rejects.toThrow(`${shownConversation(root)}/runs/${first.messageId} is a symlink, not a folder the workbench made`);

    expect(await readdir(outside)).toEqual(['plan.md', 'research.md', 'secret.md']);
    expect(await readFile(path.join(outside, 'plan.md'), 'utf8')).toBe(planText('Outside item'));
    expect((await workbench.request('workbench:snapshot')).conversation.map((message) => message.text)).toEqual(['One', 'Summary of First.']);
    expect(await readFile(path.join(conversationDir(root), 'rpi/plan.md'), 'utf8')).toMatch(/^- \[x\] 1\. First/m);
  });

  it('refuses runs/ itself swapped for a symlink: no summary is read through it, and the snapshot says why', async () => {
    const { root, outside } = await projectAndOutside();
    const { workbench, first } = await afterTwoRequests(root);
    await rm(path.join(conversationDir(root), 'runs'), { recursive: true });
    await mkdir(path.join(outside, first));
    await writeFile(path.join(outside, first, 'plan.md'), planText('Outside'));
    await symlink(outside, path.join(conversationDir(root), 'runs'));

    const snapshot = await workbench.request('workbench:snapshot');

    expect(Object.keys(snapshot.runs ?? {})).not.toContain(first);
    expect(snapshot.warnings.at(-1)).toBe(
      `${shownConversation(root)}/runs is a symlink, not a folder the workbench made; the workbench never follows links in .workbench/. Remove it and try again. No earlier plan can be shown until then.`,
    );
    await expect(workbench.request('session:run-file', { messageId: first, file: 'plan' })).rejects.toThrow(`${shownConversation(root)}/runs is a symlink`);

    // Undo still goes back; it says it left the planted link alone, and nothing behind it is removed.
    const warnings: string[] = [];
    workbench.subscribe((event) => void (event.type === 'warning' && warnings.push(event.message)));
    await workbench.request('session:undo', { messageId: first });
    expect((await workbench.request('workbench:snapshot')).conversation).toEqual([]);
    expect(warnings).toEqual([`${shownConversation(root)}/runs is a symlink, not a folder the workbench made; the workbench never follows links in .workbench/. Remove it and try again. The plan history of the requests undone was not removed.`]);
    expect(await readFile(path.join(outside, first, 'plan.md'), 'utf8')).toBe(planText('Outside'));
  });
});
