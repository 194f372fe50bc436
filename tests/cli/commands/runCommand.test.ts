import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli, writeSettingsFile } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, eventTrail, phaseOfRequest, planText, requestText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { closedPortUrl } from '../../support/closedPort.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('rpi-workbench run', () => {
  const tempFolder = useTempFolders('rpi-cli-run-');
  const llm = useFakeLlm();
  const cli = useCli();

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    return root;
  }

  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  it('--json prints every event of a full run as one contract event per line, and exits 0', async () => {
    const root = await project();
    llm().enqueue(
      call('read_file', { path: 'README.md' }),
      say('The project is a README.'),
      say(planText('Greeting')),
      call('write_file', { path: 'greeting.txt', content: 'hi\n' }),
      say('Wrote greeting.txt.'),
      say('Added **greeting.txt**, which says hi to whoever reads it.'),
    );

    const run = await cli.run(['run', root, 'Add', 'a', 'greeting', '--json', '--yes', ...model()]);

    expect(run.code).toBe(0);
    const events = parseJsonEvents(run.stdout);
    expect(eventTrail(events, ['message-added', 'run-started', 'phase-started', 'implement-progress', 'approval-requested', 'approval-resolved', 'run-finished'])).toEqual([
      'message-added',
      'run-started',
      'phase-started:research',
      'phase-started:plan',
      'phase-started:implement',
      'implement-progress',
      'approval-requested',
      'approval-resolved',
      'phase-started:summary',
      'message-added',
      'run-finished',
    ]);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events[0]).toMatchObject({ type: 'message-added', message: { role: 'user', text: 'Add a greeting' } });
    expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ decision: 'approved' });
    expect(events.find((event) => event.type === 'implement-progress')).toMatchObject({ current: 1, total: 1, label: 'Greeting' });
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', status: 'done' });
    const deltas = events.flatMap((event) => (event.type === 'summary-delta' ? [event.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    const answer = events.flatMap((event) => (event.type === 'message-added' && event.message.role === 'assistant' ? [event.message.text] : []));
    expect(answer).toEqual([deltas.join('')]);
    expect(answer[0]).toBe('Added **greeting.txt**, which says hi to whoever reads it.');
    expect(await readFile(path.join(root, 'greeting.txt'), 'utf8')).toBe('hi\n');
    expect(llm().requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });

  it('shows a person the phases and tool calls on stderr and prints the summary, alone, on stdout', async () => {
    const root = await project();
    llm().enqueue(
      say('The project is a README.'),
      say(planText('Greeting')),
      call('write_file', { path: 'greeting.txt', content: 'hi\n' }),
      say('Wrote greeting.txt.'),
      say('Added greeting.txt.'),
    );

    const run = await cli.run(['run', root, 'Add a greeting', '--yes', ...model()]);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Added greeting.txt.\n');
    expect(run.stderr).toContain('▸ Research: analyzing files…');
    expect(run.stderr).toContain('▸ Plan: planning approach…');
    expect(run.stderr).toContain('▸ Implement: step 1/1: Greeting');
    expect(run.stderr).toMatch(/ {2}✓ write_file greeting\.txt \(\d+(\.\d)? m?s\)/);
    expect(run.stderr).toContain('▸ Summary: summarizing results…');
    expect(run.stderr).toMatch(/Done in \d+s · [\d,]+ tokens in · [\d,]+ out\n/);
    expect(run.stderr).not.toContain('\r');
  });

  it('without a terminal and without --yes, denies a write with a note saying how to allow it, and the run goes on', async () => {
    const root = await project();
    llm().enqueue(
      say('The project is a README.'),
      say(planText('Notes')),
      call('write_file', { path: 'notes.txt', content: 'secret plans\n' }),
      say('The write was denied, so I could not add notes.txt.'),
      say('Nothing was written: the write of notes.txt was denied.'),
    );

    const run = await cli.run(['run', root, 'Write notes', ...model()]);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'rpi-workbench: denied write_file notes.txt: file changes need your approval, and nobody can answer here (not a terminal). ' +
        'To allow such requests, pass --yes, or set the approval policies in Settings (files: auto; commands: allow-list or auto).',
    );
    expect(existsSync(path.join(root, 'notes.txt'))).toBe(false);
    const afterDenial = llm().chatRequests()[3]!;
    expect(phaseOfRequest(afterDenial)).toBe('implement');
    expect(requestText(afterDenial)).toMatch(/denied/i);
    expect(run.stdout).toBe('Nothing was written: the write of notes.txt was denied.\n');
  });

  it('stops at the plan review asked for in Settings when nobody can answer: the plan is rejected, the run resumable', async () => {
    const root = await project();
    await writeSettingsFile(cli.configDir(), { approvals: { reviewPlan: true } });
    llm().enqueue(say('The project is a README.'), say(planText('Notes')));

    const run = await cli.run(['run', root, 'Write notes', ...model()]);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('rpi-workbench: the plan needs your review (plan review is on in Settings), and nobody can answer here (not a terminal)');
    expect(run.stderr).toContain(`Resume with: rpi-workbench resume ${root}`);
    expect(await readFile(path.join(conversationDir(root), 'rpi', 'plan.md'), 'utf8')).toContain('- [ ] 1. Notes');

    llm().enqueue(call('write_file', { path: 'notes.txt', content: 'n\n' }), say('Wrote notes.'), say('Notes written.'));
    const resumed = await cli.run(['resume', root, '--yes', ...model()]);
    expect(resumed.code).toBe(0);
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('n\n');
    expect(llm().chatRequests().map(phaseOfRequest)).toEqual(['research', 'plan', 'implement', 'implement', 'summary']);
  });
});

describe('where run settings come from', () => {
  const tempFolder = useTempFolders('rpi-cli-settings-');
  const llm = useFakeLlm({ apiKey: 'sk-flag-key' });
  const cli = useCli();

  const nothingToDo = () => llm().enqueue(say('Nothing to look at.'), say('No changes are needed.'), say('Nothing changed.'));
  const modelOfLastRun = () => llm().chatRequests().at(-1)?.model;

  // Six runs of the CLI, a process of its own each: with two test files at a time on a loaded two-core machine
  // that came to the default 20 s. Nothing here waits on time.
  it('takes flags over the environment over the config file', { timeout: 60_000 }, async () => {
    const root = await tempFolder();
    await writeSettingsFile(cli.configDir(), { baseUrl: llm().baseUrl, model: 'config-model' });
    const closedPort = await closedPortUrl();

    nothingToDo();
    const fromConfig = await cli.run(['run', root, 'Look', '--api-key', 'sk-flag-key']);
    expect(fromConfig.code).toBe(0);
    expect(modelOfLastRun()).toBe('config-model');

    nothingToDo();
    const fromEnv = await cli.run(['run', root, 'Look'], { env: { RPI_MODEL: 'env-model', OPENAI_API_KEY: 'sk-flag-key' } });
    expect(fromEnv.code).toBe(0);
    expect(modelOfLastRun()).toBe('env-model');

    nothingToDo();
    const fromFlags = await cli.run(['run', root, 'Look', '--model', 'flag-model', '--base-url', llm().baseUrl, '--api-key', 'sk-flag-key'], {
      env: { RPI_MODEL: 'env-model', OPENAI_BASE_URL: closedPort, OPENAI_API_KEY: 'sk-env-key' },
    });
    expect(fromFlags.code).toBe(0);
    expect(modelOfLastRun()).toBe('flag-model');

    const envBaseUrl = await cli.run(['run', root, 'Look'], { env: { OPENAI_BASE_URL: closedPort, OPENAI_API_KEY: 'sk-flag-key' } });
    expect(envBaseUrl.code).toBe(2);
    expect(envBaseUrl.stderr).toContain(`Cannot reach the model server at ${closedPort} (ECONNREFUSED)`);
    for (const run of [fromConfig, fromEnv, fromFlags, envBaseUrl]) expect(run.stdout + run.stderr).not.toContain('sk-');
  });
});

describe('rpi-workbench run --retries', () => {
  const tempFolder = useTempFolders('rpi-cli-retries-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('tries a failed model call as often as --retries says, showing each retry as it starts', async () => {
    const root = await tempFolder();
    llm().enqueue({ fault: 'http-500' }, { fault: 'http-500' });
    const once = await cli.run(['run', root, 'Look', '--retries', '1', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    expect(once.code).toBe(1);
    expect(llm().chatRequests()).toHaveLength(2);
    expect(once.stderr).toContain('… retrying in 1 s (attempt 2 of 2): HTTP 500');
    expect(once.stderr).toContain(`The model server at ${llm().baseUrl} failed after 1 retry (HTTP 500`);

    const refused = await cli.run(['run', root, 'Look', '--retries', '11', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("option '--retries <n>' argument '11' is invalid. must be a whole number from 0 to 10.");
  });
});

describe('rpi-workbench run on a base URL whose model list is a web page', () => {
  const tempFolder = useTempFolders('rpi-cli-web-page-');
  const llm = useFakeLlm({ modelListAsWebPage: true });
  const cli = useCli();

  it('warns that the server answered a web page, not a model list, and to check the base URL', async () => {
    const root = await tempFolder();
    llm().enqueue(say('research'), say(planText('Only')), say('done'), say('summary'));

    const run = await cli.run(['run', root, 'Look', '--base-url', llm().baseUrl, '--model', 'fake-model']);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `rpi-workbench: warning: Could not check the model server (The model server at ${llm().baseUrl} answered GET /models with a web page (HTML), not a model list. ` +
        'Check the base URL: OpenAI-compatible servers usually serve under /v1, and a proxy may be showing its own page.); trying the run anyway.\n',
    );
    expect(run.stderr).not.toContain('does not list');
  });
});

describe('rpi-workbench run after a crash mid-write', () => {
  const tempFolder = useTempFolders('rpi-cli-torn-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('says on stderr which file had an incomplete last line cut off, and how many bytes', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const model = ['--yes', '--base-url', llm().baseUrl, '--model', 'fake-model'];
    const oneRun = () => llm().enqueue(call('read_file', { path: 'a.txt' }), say('research'), say(planText('Only')), say('done'), say('summary'));
    oneRun();
    expect((await cli.run(['run', root, 'Read a.txt', ...model])).code).toBe(0);
    const torn = '{"id":7,"runId":"r","phase":"res';
    await appendFile(path.join(root, '.workbench', 'tool-log.jsonl'), torn);
    oneRun();
    const again = await cli.run(['run', root, 'Read it again', ...model]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`rpi-workbench: warning: tool-log.jsonl: cut off an incomplete last line of ${torn.length} bytes`);
  });
});

describe('rpi-workbench retry', () => {
  const tempFolder = useTempFolders('rpi-cli-retry-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('tries the failed steps again and prints the new summary; with nothing failed it is a usage error', async () => {
    const root = await tempFolder();
    const model = ['--yes', '--base-url', llm().baseUrl, '--model', 'fake-model'];
    llm().enqueue(say('research'), say(planText('Only')), say('FAILED: the disk was full'), say('FAILED: the disk was full'), say('It failed.'));
    expect((await cli.run(['run', root, 'Do it', ...model])).code).toBe(0);
    llm().enqueue(say('Done this time.'), say('It worked on the second try.'));
    const retried = await cli.run(['retry', root, ...model]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toBe('It worked on the second try.\n');
    expect(requestText(llm().chatRequests().at(-2)!)).toContain('the disk was full');
    const again = await cli.run(['retry', root, ...model]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('Nothing to retry: the latest request has no failed steps.');
  });
});
