import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, phaseOfRequest, planText, requestsForStep, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('Ctrl-C and resume', () => {
  const tempFolder = useTempFolders('rpi-cli-interrupt-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  it('SIGINT mid-implement cancels cleanly (exit 1, resumable); resume finishes without redoing the done step', async () => {
    const root = await tempFolder();
    llm().enqueue(
      say('An empty folder.'),
      say(planText('First', 'Second')),
      call('write_file', { path: 'one.txt', content: '1\n' }),
      say('First done.'),
      call('run_command', { command: 'sleep 30' }),
    );
    const running = cli.start(['run', root, 'Two steps', '--json', '--yes', ...model()]);
    await running.waitFor('stdout', /"type":"tool-started"[^\n]*"tool":"run_command"/);

    running.child.kill('SIGINT');
    const stopped = await running.exited;

    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`Cancelled; the run is resumable: rpi-workbench resume ${root}\n`);
    expect(parseJsonEvents(stopped.stdout).at(-1)).toMatchObject({ type: 'run-finished', status: 'cancelled', phase: 'implement' });
    const plan = await readFile(path.join(conversationDir(root), 'rpi', 'plan.md'), 'utf8');
    expect(plan).toContain('- [x] 1. First');
    expect(plan).toContain('- [ ] 2. Second');
    expect(requestsForStep(llm(), 1)).toBe(2);

    llm().enqueue(call('write_file', { path: 'two.txt', content: '2\n' }), say('Second done.'), say('Both steps done.'));
    const resumed = await cli.run(['resume', root, '--yes', ...model()]);

    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Both steps done.\n');
    expect(resumed.stderr).toContain('▸ Implement: step 2/2: Second');
    expect(resumed.stderr).not.toContain('step 1/2');
    expect(requestsForStep(llm(), 1)).toBe(2);
    expect(requestsForStep(llm(), 2)).toBe(3);
    expect(llm().chatRequests().map(phaseOfRequest).filter((phase) => phase === 'research' || phase === 'plan')).toEqual(['research', 'plan']);
    expect(await readFile(path.join(root, 'two.txt'), 'utf8')).toBe('2\n');

    const again = await cli.run(['resume', root, ...model()]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^Context window: [\d,]+ tokens \(from .+\)\nrpi-workbench: Nothing to resume: the last request was answered\. Send a new message instead\.\n$/);
  });

  it('a second Ctrl-C while the first is still cancelling stops at once (exit 130); the lock it leaves is taken over', async () => {
    const root = await tempFolder();
    llm().enqueue(say('An empty folder.'), say(planText('Wait')), call('run_command', { command: "trap '' TERM; sleep 5" }));
    const running = cli.start(['run', root, 'Wait', '--json', '--yes', ...model()]);
    await running.waitFor('stdout', /"type":"tool-started"[^\n]*"tool":"run_command"/);

    // The command ignores SIGTERM, so the clean cancel waits out the engine's grace period before SIGKILL.
    running.child.kill('SIGINT');
    await running.waitFor('stderr', 'Cancelling… (press Ctrl-C again to stop at once)');
    running.child.kill('SIGINT');
    const stopped = await running.exited;

    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(`Stopped at once. Cancelled; the run is resumable: rpi-workbench resume ${root}`);
    expect(parseJsonEvents(stopped.stdout).some((event) => event.type === 'run-finished')).toBe(false);
    const history = await cli.run(['history', root, '--json']);
    expect(history.code).toBe(0);
    expect(history.stdout).toContain('"text":"Wait"');
  });
});
