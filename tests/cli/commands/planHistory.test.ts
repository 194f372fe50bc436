import { describe, expect, it } from 'vitest';
import { historyOf as historyOfFolder, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { greetingDoneWorkbookFailed, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';


// Each test starts the CLI three to six times (whole runs among them), a process of its own each: with two test
// files at a time on a loaded two-core machine that came to the default 20 s. Nothing here waits on time.
describe('history shows each request’s plan outcome, and prints an earlier plan', { timeout: 60_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-plan-history-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  const historyOf = (root: string) => historyOfFolder(cli, root);

  /** Two runs: the first with a done and a failed step, the second with one done step. */
  async function folderAfterTwoRuns() {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    llm().enqueue(...greetingDoneWorkbookFailed());
    expect((await cli.run(['run', root, 'Greet and convert', '--yes', ...model()])).code).toBe(0);
    llm().enqueue(say('Still a README.'), say(planText('Tidy')), say('Tidied.'), say('Tidied up.'));
    expect((await cli.run(['run', root, 'Tidy up', '--yes', ...model()])).code).toBe(0);
    return root;
  }

  it('history --json gives every request its plan {done, failed, total}, null when its run kept none; answers have no plan field', async () => {
    const root = await folderAfterTwoRuns();
    const emptyRun = await tempFolder();
    llm().enqueue(say('Looked.'), say('# Execution Plan\n\n## Items\n'), say('Nothing needed doing.'));
    expect((await cli.run(['run', emptyRun, 'Anything to do?', '--yes', ...model()])).code).toBe(0);

    const lines = await historyOf(root);

    expect(lines.map(({ role, text, plan }) => ({ role, text, plan }))).toEqual([
      { role: 'user', text: 'Greet and convert', plan: { done: 1, failed: 1, total: 2 } },
      { role: 'assistant', text: 'Greeting done; the workbook failed.', plan: undefined },
      { role: 'user', text: 'Tidy up', plan: { done: 1, failed: 0, total: 1 } },
      { role: 'assistant', text: 'Tidied up.', plan: undefined },
    ]);
    expect(lines.filter((line) => line.role === 'assistant').every((line) => !('plan' in line))).toBe(true);
    expect((await historyOf(emptyRun)).map((line) => line.plan)).toEqual([{ done: 0, failed: 0, total: 0 }, undefined]);

    const human = await cli.run(['history', root]);
    expect(human.code).toBe(0);
    // Each request's usage has a line of its own under it.
    const rows = human.stdout
      .trimEnd()
      .split('\n')
      .filter((row) => !/^ +used: /.test(row));
    expect(rows[1]).toMatch(/ user +\S+ \S+ {2}Greet and convert {2}\[Plan: 1\/2 done, 1 failed\]$/);
    expect(rows[2]).toMatch(/ assistant +\S+ \S+ {2}Greeting done; the workbook failed\.$/);
    expect(rows[3]).toMatch(/ user +\S+ \S+ {2}Tidy up {2}\[Plan: 1\/1 done\]$/);
  });

  it('history --plan <id> prints an earlier request’s plan with its outcome marks; --research its research', async () => {
    const root = await folderAfterTwoRuns();
    const [first, , second] = await historyOf(root);

    const earlier = await cli.run(['history', root, '--plan', first!.id]);
    expect(earlier.code).toBe(0);
    expect(earlier.stdout).toMatch(/^- \[x\] 1\. Greeting — do greeting$/m);
    expect(earlier.stdout).toMatch(/^- \[!\] 2\. Workbook — do workbook \[Failed: .*no spreadsheet writer is available.*\]$/m);

    const latest = await cli.run(['history', root, '--plan', second!.id]);
    expect(latest.stdout).toMatch(/^- \[x\] 1\. Tidy — do tidy$/m);
    expect(latest.stdout).not.toContain('Greeting');

    expect(await cli.run(['history', root, '--research', first!.id])).toMatchObject({ code: 0, stdout: 'A README.\n' });
  });

  // Two tests, not one: each case alone, so a failure names it (together they started the CLI eight times).
  it('history --plan refuses an id that is not a request of the conversation', async () => {
    const root = await folderAfterTwoRuns();
    const [, answer] = await historyOf(root);

    expect(await cli.run(['history', root, '--plan', '../rpi'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'rpi-workbench: There is no message "../rpi" in this folder\'s conversation.\n',
    });
    expect((await cli.run(['history', root, '--plan', answer!.id])).stderr).toBe(
      'rpi-workbench: That message is an answer: research and plans belong to requests, so ask with the id of a user message.\n',
    );
  });

  it('history --plan says when no plan was kept for the request', async () => {
    const stopped = await tempFolder();
    llm().enqueue({ fault: 'http-401' });
    expect((await cli.run(['run', stopped, 'Look around', ...model()])).code).toBe(1);
    const [request] = await historyOf(stopped);
    expect(request!.plan).toBeNull();
    expect(await cli.run(['history', stopped, '--plan', request!.id])).toMatchObject({
      code: 1,
      stderr: 'rpi-workbench: No plan has been written yet for this request.\n',
    });
  });
});
