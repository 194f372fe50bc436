import { access, readFile } from 'node:fs/promises';
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

const ask: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };

const exists = (file: string) => access(file).then(() => true, () => false);

describe('approvals of changes', () => {
  const tempFolder = useTempFolders('rpi-approvals-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function start(turns: Parameters<ReturnType<typeof llm>['enqueue']>, settings: Partial<ApprovalSettings> = {}, extra = {}) {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    llm().enqueue(say('research'), say(planText('Change')), ...turns);
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ({ ...ask, ...settings }), ...extra });
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Change things');
    return { root, workbench, events, started, next: eventsInTurn(workbench, events, 'approval-requested') };
  }

  it('asks with the real path and exact arguments, runs the call once approved, and refuses a second answer', async () => {
    const { root, workbench, started, next, events } = await start([call('write_file', { path: 'b.txt', content: 'beta\n' }), say('done'), say('Summary.')]);
    const request = await next();
    expect(request).toMatchObject({ tool: 'write_file', args: { path: 'b.txt', content: 'beta\n' }, path: path.join(root, 'b.txt'), reason: 'file changes need your approval', canAlwaysAllow: false });
    expect(request.expiresAt).toBeGreaterThan(Date.now() + 500_000);
    expect((await workbench.request('workbench:snapshot')).pendingApprovals).toEqual([expect.objectContaining({ requestId: request.requestId })]);
    expect(await exists(path.join(root, 'b.txt'))).toBe(false);

    expect((await workbench.request('session:approve', { requestId: request.requestId, decision: 'approve' })).decision).toBe('approved');
    await expect(workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' })).rejects.toThrow('already approved; it cannot be answered again');
    expect((await started.finished).status).toBe('done');
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('beta\n');
    expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ requestId: request.requestId, decision: 'approved' });
    expect((await workbench.request('workbench:snapshot')).pendingApprovals).toEqual([]);
  });

  it('sends a denial back to the model as a result and goes on; denials do not count as tool errors', async () => {
    const write = call('write_file', { path: 'b.txt', content: 'beta\n' });
    const { root, workbench, started, next } = await start([write, write, write, write, say('Gave up on b.txt as asked.'), say('Summary.')]);
    for (let index = 0; index < 4; index += 1) await workbench.request('session:approve', { requestId: (await next()).requestId, decision: 'deny' });
    const result = await started.finished;
    expect(result.status).toBe('done');
    expect(await exists(path.join(root, 'b.txt'))).toBe(false);
    expect(requestText(llm().chatRequests().at(-2)!)).toContain('The user denied this write_file call; it was not run.');
    expect((await workbench.request('workbench:snapshot')).rpi.items[0]?.status).toBe('done');
  });

  it('runs edited arguments once they fit the tool, and rejects edits that do not, keeping the request open', async () => {
    const { root, workbench, started, next, events } = await start([call('write_file', { path: 'b.txt', content: 'beta\n' }), say('done'), say('Summary.')]);
    const request = await next();
    await expect(workbench.request('session:approve', { requestId: request.requestId, decision: 'approve', args: { path: 'c.txt' } })).rejects.toThrow(/do not fit write_file: content:/);
    await expect(workbench.request('session:approve', { requestId: request.requestId, decision: 'approve', args: { path: 42, content: 'x' } })).rejects.toThrow(/path:/);
    expect((await workbench.request('session:approve', { requestId: request.requestId, decision: 'approve', args: { path: 'c.txt', content: 'edited\n' } })).decision).toBe('edited');
    await started.finished;
    expect(await readFile(path.join(root, 'c.txt'), 'utf8')).toBe('edited\n');
    expect(await exists(path.join(root, 'b.txt'))).toBe(false);
    expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ decision: 'edited', args: { path: 'c.txt', content: 'edited\n' } });
  });

  it('expires an unanswered request as denied and tells the model', async () => {
    const { root, started, events } = await start([call('write_file', { path: 'b.txt', content: 'beta\n' }), say('done without it'), say('Summary.')], { timeoutSeconds: 1 });
    expect((await started.finished).status).toBe('done');
    expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ decision: 'expired' });
    expect(await exists(path.join(root, 'b.txt'))).toBe(false);
    expect(requestText(llm().chatRequests().at(-2)!)).toContain('Nobody answered the approval request for this write_file call within 1 second, so it expired');
  });

  it('asks once per call when one turn makes several, answered in any order', async () => {
    const { root, workbench, started, next } = await start([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'one.txt', content: '1' } }, { name: 'run_command', arguments: { command: 'echo hi > two.txt' } }] },
      say('done'),
      say('Summary.'),
    ]);
    const first = await next();
    await workbench.request('session:approve', { requestId: first.requestId, decision: 'approve' });
    const second = await next();
    expect(second).toMatchObject({ tool: 'run_command', args: { command: 'echo hi > two.txt' }, canAlwaysAllow: false });
    expect(second.requestId).not.toBe(first.requestId);
    await workbench.request('session:approve', { requestId: second.requestId, decision: 'deny' });
    await started.finished;
    expect(await exists(path.join(root, 'one.txt'))).toBe(true);
    expect(await exists(path.join(root, 'two.txt'))).toBe(false);
  });

  it('denies the waiting request when the run is cancelled', async () => {
    const { workbench, started, next, events } = await start([call('delete_file', { path: 'a.txt' })]);
    await next();
    await workbench.request('session:cancel');
    expect((await started.finished).status).toBe('cancelled');
    expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ decision: 'denied' });
    expect((await workbench.request('workbench:snapshot')).pendingApprovals).toEqual([]);
  });

  it('always asks for protected paths, even when file changes run without asking', async () => {
    const { root, workbench, started, next } = await start(
      [call('write_file', { path: 'src/app.ts', content: 'x' }), call('write_file', { path: '.env', content: 'KEY=1' }), say('done'), say('Summary.')],
      { files: 'auto' },
    );
    const request = await next();
    expect(request).toMatchObject({ args: { path: '.env' } });
    expect(request.reason).toMatch(/^\.env: .*always need your approval/);
    expect(await exists(path.join(root, 'src/app.ts'))).toBe(true);
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' });
    await started.finished;
    expect(await exists(path.join(root, '.env'))).toBe(false);
  });

  it('remembers "always allow" for the exact command in the user config, never in the folder', async () => {
    const configDir = await tempFolder();
    const allowedCommands = new AllowedCommands(configDir);
    const { root, workbench, started, next } = await start(
      [call('run_command', { command: 'echo hi' }), call('run_command', { command: 'echo hi' }), call('run_command', { command: 'echo hi; touch x' }), say('done'), say('Summary.')],
      { commands: 'allow-list' },
      { allowedCommands },
    );
    const first = await next();
    expect(first).toMatchObject({ args: { command: 'echo hi' }, canAlwaysAllow: true, reason: expect.stringContaining('allow-list') });
    expect((await workbench.request('session:approve', { requestId: first.requestId, decision: 'approve', alwaysAllow: true })).decision).toBe('approved');
    const chained = await next();
    expect(chained).toMatchObject({ args: { command: 'echo hi; touch x' }, canAlwaysAllow: false });
    await workbench.request('session:approve', { requestId: chained.requestId, decision: 'deny' });
    await started.finished;
    expect(await allowedCommands.list(root)).toEqual([{ command: 'echo hi', files: {} }]);
    expect(await readFile(path.join(configDir, 'allowed-commands.json'), 'utf8')).toContain('echo hi');
    expect(await exists(path.join(root, 'x'))).toBe(false);
  });
});
