import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalSettings } from '../../../engine/contract/index.js';
import { AllowedCommands } from '../../../engine/settings/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { eventsInTurn } from '../../support/eventsInTurn.js';

const allowList: ApprovalSettings = { files: 'auto', commands: 'allow-list', timeoutSeconds: 600, reviewPlan: false };
const packageJson = (test: string) => `${JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test } }, null, 2)}\n`;
const exists = (file: string) => access(file).then(() => true, () => false);

describe('an allow-listed command is bound to the files that define what it runs', () => {
  const tempFolder = useTempFolders('rpi-allow-binding-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function start(turns: Parameters<ReturnType<typeof llm>['enqueue']>, allowedCommands: AllowedCommands, files: Record<string, string>) {
    const root = await tempFolder();
    await writeTree(root, files);
    llm().enqueue(say('research'), say(planText('Test')), ...turns);
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => allowList, allowedCommands });
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Run the tests');
    return { root, workbench, events, started, next: eventsInTurn(workbench, events, 'approval-requested') };
  }

  it('runs `npm test` unasked while package.json is unchanged, and asks again, saying why, once the agent rewrote it', async () => {
    const allowedCommands = new AllowedCommands(await tempFolder());
    const { root, workbench, events, started, next } = await start(
      [
        call('run_command', { command: 'npm test' }),
        call('run_command', { command: 'npm test' }),
        call('write_file', { path: 'package.json', content: packageJson('echo evil > evil.txt') }),
        call('run_command', { command: 'npm test' }),
        say('done'),
        say('Summary.'),
      ],
      allowedCommands,
      { 'package.json': packageJson('echo ran >> ran.txt') },
    );
    const first = await next();
    expect(first).toMatchObject({ args: { command: 'npm test' }, canAlwaysAllow: true, reason: 'this command is not on the folder’s allow-list' });
    await workbench.request('session:approve', { requestId: first.requestId, decision: 'approve', alwaysAllow: true });

    const rebound = await next();
    expect(rebound).toMatchObject({ tool: 'run_command', args: { command: 'npm test' }, canAlwaysAllow: true });
    expect(rebound.reason).toBe('package.json has changed since you allowed `npm test`, and it defines what that command runs');
    await workbench.request('session:approve', { requestId: rebound.requestId, decision: 'deny' });
    expect((await started.finished).status).toBe('done');

    expect(events.filter((event) => event.type === 'approval-requested')).toHaveLength(2);
    expect(await readFile(path.join(root, 'ran.txt'), 'utf8')).toBe('ran\nran\n');
    expect(await exists(path.join(root, 'evil.txt'))).toBe(false);
    expect(await allowedCommands.list(root)).toEqual([{ command: 'npm test', files: { 'package.json': expect.stringMatching(/^sha256:/) } }]);
    expect(requestText(llm().chatRequests().at(-2)!)).toContain('The user denied this run_command call');
  });

  it('rebinds on "Always allow" again, so the rewritten script then runs unasked', async () => {
    const allowedCommands = new AllowedCommands(await tempFolder());
    const { root, workbench, events, started, next } = await start(
      [
        call('run_command', { command: 'npm test' }),
        call('write_file', { path: 'package.json', content: packageJson('echo second >> ran.txt') }),
        call('run_command', { command: 'npm test' }),
        call('run_command', { command: 'npm test' }),
        say('done'),
        say('Summary.'),
      ],
      allowedCommands,
      { 'package.json': packageJson('echo first >> ran.txt') },
    );
    await workbench.request('session:approve', { requestId: (await next()).requestId, decision: 'approve', alwaysAllow: true });
    const changed = await next();
    expect(changed.reason).toMatch(/^package\.json has changed since you allowed `npm test`/);
    await workbench.request('session:approve', { requestId: changed.requestId, decision: 'approve', alwaysAllow: true });
    expect((await started.finished).status).toBe('done');
    expect(events.filter((event) => event.type === 'approval-requested')).toHaveLength(2);
    expect(await readFile(path.join(root, 'ran.txt'), 'utf8')).toBe('first\nsecond\nsecond\n');
  });

  it('asks once for an entry saved before allowances were bound, and binds it when allowed again', async () => {
    const configDir = await tempFolder();
    const root = await tempFolder();
    await writeTree(root, { 'package.json': packageJson('echo ran >> ran.txt') });
    await mkdir(configDir, { recursive: true });
    await writeFile(path.join(configDir, 'allowed-commands.json'), JSON.stringify({ [root]: ['npm test', 'echo hi'] }));
    const allowedCommands = new AllowedCommands(configDir);
    llm().enqueue(
      say('research'),
      say(planText('Test')),
      call('run_command', { command: 'echo hi' }),
      call('run_command', { command: 'npm test' }),
      call('run_command', { command: 'npm test' }),
      say('done'),
      say('Summary.'),
    );
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => allowList, allowedCommands });
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Run the tests');
    const legacy = await eventsInTurn(workbench, events, 'approval-requested')();
    expect(legacy).toMatchObject({ args: { command: 'npm test' }, canAlwaysAllow: true });
    expect(legacy.reason).toBe(
      '`npm test` was allowed before the workbench kept track of the files that define what it runs (package.json); choose "Always allow" again to bind it to them as they are now',
    );
    await workbench.request('session:approve', { requestId: legacy.requestId, decision: 'approve', alwaysAllow: true });
    expect((await started.finished).status).toBe('done');
    expect(events.filter((event) => event.type === 'approval-requested')).toHaveLength(1);
    expect(await readFile(path.join(root, 'ran.txt'), 'utf8')).toBe('ran\nran\n');
    expect(await allowedCommands.list(root)).toEqual([{ command: 'echo hi' }, { command: 'npm test', files: { 'package.json': expect.stringMatching(/^sha256:/) } }]);
  });

  it('asks again when the agent changed the Makefile through a shell command', async () => {
    const allowedCommands = new AllowedCommands(await tempFolder());
    const { root, workbench, started, next } = await start(
      [
        call('run_command', { command: 'make check' }),
        call('run_command', { command: 'cp Makefile.next Makefile' }),
        call('run_command', { command: 'make check' }),
        say('done'),
        say('Summary.'),
      ],
      allowedCommands,
      { Makefile: 'check:\n\techo ran >> ran.txt\n', 'Makefile.next': 'check:\n\techo evil > evil.txt\n' },
    );
    await workbench.request('session:approve', { requestId: (await next()).requestId, decision: 'approve', alwaysAllow: true });
    await workbench.request('session:approve', { requestId: (await next()).requestId, decision: 'approve' });
    const changed = await next();
    expect(changed.reason).toBe('Makefile has changed since you allowed `make check`, and it defines what that command runs');
    await workbench.request('session:approve', { requestId: changed.requestId, decision: 'deny' });
    expect((await started.finished).status).toBe('done');
    expect(await readFile(path.join(root, 'ran.txt'), 'utf8')).toBe('ran\n');
    expect(await exists(path.join(root, 'evil.txt'))).toBe(false);
  });
});
